import Geofencing
import Testing
@testable import RegionMonitorSimulation

/// Near Me 8.6: wake-ups and GPS fixes per device-day, their battery share by the documented
/// energy model, and the power-saving mode's effect on recall.
@Suite struct PowerBudgetTests {
    /// The model by hand: 100 wake-ups and 250 fixes a day = 100 + 1,000 J of 41,580 J.
    @Test func energyModelByHand() {
        var s = PlanScoring.Score()
        s.deviceHours = 48
        s.osWakeUps = 200
        s.wakes = 500
        #expect(s.wakeUpsPerDeviceDay == 100 && s.gpsFixesPerDeviceDay == 250)
        let budget = PowerBudget()
        #expect(abs(budget.percentPerDay(s) - 1_100.0 / 41_580 * 100) < 1e-12)
        #expect(!budget.exceeds(s))
        s.wakes = 1_500  // 750 fixes a day: 3,100 J, 7.5 %
        #expect(budget.exceeds(s))
        #expect(PowerBudget().percentPerDay(PlanScoring.Score()) == 0)
    }

    /// On the road drive of ``PlanScoringTests`` the simulation counts OS wake-ups and fixes; power saving takes fixes only at
    /// plans: fewer fixes and less battery, OS recall unchanged, system recall never higher.
    @Test func powerSavingTradesRecallForBattery() throws {
        let rows = roadFences()
        let fixes = straightDrive(fixes: 200)
        let truth = try PlanScoring.truth(fences: fences(rows), fixes: fixes)
        let planner = try MonitorPlanner(
            candidates: PlanScoring.candidates(from: rows),
            configuration: .init(capacity: 2, minimumRefreshRadiusMeters: 1_500))
        let settings = PlanScoring.Settings(os: .init(capacity: 2), seed: 3)
        let normal = try PlanScoring.score(.planner(planner, significantChangeMeters: nil), truth: truth, fixes: fixes, settings: settings)
        let saving = try PlanScoring.score(
            .planner(planner, significantChangeMeters: nil), truth: truth, fixes: fixes,
            settings: PowerBudget.powerSaving(settings))
        #expect(normal.osWakeUps > 0 && normal.wakes > 0)
        #expect(saving.gpsFixesPerDeviceDay < normal.gpsFixesPerDeviceDay)
        #expect(PowerBudget().percentPerDay(saving) < PowerBudget().percentPerDay(normal))
        #expect(saving.caughtRequired == normal.caughtRequired)
        #expect(saving.recallWithWakeUpCheck <= normal.recallWithWakeUpCheck)
    }
}
