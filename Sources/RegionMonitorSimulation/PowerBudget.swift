/// Near Me's power budget (requirement 8.6: "if battery usage exceeds 3 % daily average, the
/// system shall implement additional power-saving measures"): an energy model over the planner
/// simulation's wake-ups and GPS fixes, and the power-saving mode it switches to above the
/// threshold.
///
/// Energy model (docs/REMINDERS.md, "Power budget"): a day's share of the battery is
/// `(wakeUps × wakeUpJoules + gpsFixes × gpsFixJoules) / batteryJoules × 100` per device-day.
/// Defaults: a 3,000 mAh, 3.85 V battery (41,580 J); a background wake-up 1 J (about 3 s of CPU
/// and radio at 0.3 W above idle); a GPS fix 4 J (about 10 s of GNSS at 0.35 W with its CPU).
/// The OS's own region monitoring (cell and Wi-Fi based) is not charged to the app.
///
/// Power-saving mode: the app takes a fix only when it plans (``PlanScoring/Settings/checksAtEveryWake``
/// false, no confirmation fixes); OS events still reach it, so OS recall is unchanged and only
/// the wake-time check's catches are given up.
public struct PowerBudget: Hashable, Sendable {
    /// Battery energy, joules (> 0).
    public var batteryJoules = 41_580.0
    /// Energy of one wake-up, joules.
    public var wakeUpJoules = 1.0
    /// Energy of one GPS fix, joules.
    public var gpsFixJoules = 4.0
    /// Daily battery share above which power saving engages, percent.
    public var thresholdPercentPerDay = 3.0

    /// The defaults above.
    public init() {}

    /// The battery share per device-day of `score`'s wake-ups and fixes, percent (0 without
    /// device-hours).
    public func percentPerDay(_ score: PlanScoring.Score) -> Double {
        (score.wakeUpsPerDeviceDay * wakeUpJoules + score.gpsFixesPerDeviceDay * gpsFixJoules) / batteryJoules * 100
    }

    /// Whether `score` is over the threshold (power saving engages).
    public func exceeds(_ score: PlanScoring.Score) -> Bool { percentPerDay(score) > thresholdPercentPerDay }

    /// `settings` in power-saving mode.
    public static func powerSaving(_ settings: PlanScoring.Settings) -> PlanScoring.Settings {
        var s = settings
        s.checksAtEveryWake = false
        s.wakeCheckConfirmFixes = 0
        return s
    }
}
