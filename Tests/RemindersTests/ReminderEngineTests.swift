import Foundation
import Geofencing
import Testing
@testable import Reminders

@Suite struct ReminderEngineTests {
    static let noon = World.epoch + 12 * 3_600

    /// Near Me's escalation: the 5-, 3- and 1-mile rings entered minutes apart give three
    /// nudges in one trip; re-entering a ring already passed says nothing new; leaving the widest
    /// ring ends the trip. Rings entered at once are one bundle naming the nearest.
    @Test func tiersEscalateInOneTrip() {
        let (book, _) = World.book()
        var e = try! ReminderEngine()
        var out: [ReminderDecision] = []
        for (k, fence) in [Int32(0), 1, 2].enumerated() {
            let t = Self.noon + Double(k) * 600
            e.handle(enter(fence, at: t), in: book, context: .background, now: t, into: &out)
            e.advance(to: t + 300, in: book, context: .background, into: &out)
        }
        let miles: [Double] = out.filter(\.isDelivered).map { $0.item.distanceMeters / 1609.344 }
        #expect(miles == [5, 3, 1])
        #expect(out.count == 3)
        // Driving on: the 1-mile ring again later in the same trip says nothing new.
        out = []
        e.handle(exit(2, at: Self.noon + 1_500), in: book, context: .background, now: Self.noon + 1_500, into: &out)
        e.handle(enter(2, at: Self.noon + 1_600), in: book, context: .background, now: Self.noon + 1_600, into: &out)
        #expect(out.map(\.reason) == [.alreadyNudged])
        // Leaving the widest ring ends the trip: the next one nudges again.
        out = []
        e.handle(exit(0, at: Self.noon + 2_000), in: book, context: .background, now: Self.noon + 2_000, into: &out)
        for fence: Int32 in [0, 1, 2] {
            e.handle(enter(fence, at: Self.noon + 9_000), in: book, context: .background, now: Self.noon + 9_000, into: &out)
        }
        e.advance(to: Self.noon + 10_000, in: book, context: .background, into: &out)
        let delivered = out.filter(\.isDelivered)
        #expect(delivered.count == 1)
        #expect(delivered[0].item.distanceMeters == 1609.344)  // the rings at once: one nudge, the nearest named
        #expect(out.filter { $0.reason == .alreadyNudged }.count == 2)
        #expect(e.counters.ignored == 2)  // the two exits
    }

    /// Home with the defaults: the 2-mile approach, "Arriving at Home" and "Still need to...?"
    /// are three nudges of one trip (Kwilt's caps do not apply to Near Me's nudges).
    @Test func homeTripApproachArrivalPostArrival() {
        let (book, _) = World.book()
        var e = try! ReminderEngine()
        var out: [ReminderDecision] = []
        let steps: [(TransitionEvent, Double)] = [
            (enter(3, at: Self.noon), Self.noon), (enter(4, at: Self.noon + 240), Self.noon + 240),
            (TransitionEvent(device: 0, fence: 5, kind: .dwell, time: Self.noon + 540), Self.noon + 540)
        ]
        for (event, now) in steps {
            e.handle(event, in: book, context: .background, now: now, into: &out)
            e.advance(to: now + 200, in: book, context: .background, into: &out)
        }
        #expect(out.map(\.kind) == [.approach, .arrival, .postArrival])
        #expect(out.filter(\.isDelivered).count == 3)
        // Snoozed for an hour: every nudge of the task waits for its end.
        _ = e.apply(.snooze(slot: 1, .oneHour), in: book, now: Self.noon + 900)
        out = []
        e.handle(exit(3, at: Self.noon + 1_000), in: book, context: .background, now: Self.noon + 1_000, into: &out)
        e.handle(enter(3, at: Self.noon + 1_200), in: book, context: .background, now: Self.noon + 1_200, into: &out)
        #expect(out.map(\.reason) == [.snoozed])
        #expect(out[0].until == Self.noon + 900 + 3_600)
    }

    /// Two tasks triggered within the window: one bundled notification listing both, counted once.
    @Test func bundleCountsOnce() {
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: World.preferences(cap: 1))
        var out: [ReminderDecision] = []
        e.handle(enter(0, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        e.handle(enter(3, at: Self.noon + 100), in: book, context: .background, now: Self.noon + 100, into: &out)
        #expect(out.isEmpty)  // both wait for the window to close
        #expect(e.nextWakeTime == Self.noon + 120)
        e.advance(to: Self.noon + 120, in: book, context: .background, into: &out)
        #expect(out.count == 1)
        #expect(out[0].kind == .bundle)
        #expect(out[0].items.map(\.slot) == [0, 1])
        #expect(out[0].time == Self.noon + 120)
        #expect(e.ledger.count(onDay: e.localTime(at: Self.noon).day) == 1)
        // After the window, a third trigger meets the cap of 1.
        out = []
        e.handle(enter(4, at: Self.noon + 200), in: book, context: .background, now: Self.noon + 200, into: &out)
        #expect(out.first?.reason == .taskCooldown)  // home was in the bundle
    }

    @Test func duplicatesAndLateEvents() {
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: World.preferences())
        let first = e.run(enter(3, at: Self.noon), book)
        #expect(first.filter(\.isDelivered).count == 1)
        // The same OS event again, at once and an hour late.
        #expect(e.run(enter(3, at: Self.noon), book, now: Self.noon + 5).map(\.reason) == [.duplicateEvent])
        #expect(e.run(enter(3, at: Self.noon), book, now: Self.noon + 3_600).map(\.reason) == [.staleEvent])
        // A late event that was never seen is stale too: an approach nudge an hour late is wrong.
        var fresh = try! ReminderEngine(preferences: World.preferences())
        #expect(fresh.run(enter(0, at: Self.noon), book, now: Self.noon + 3_600).map(\.reason) == [.staleEvent])
        #expect(e.ledger.count(onDay: e.localTime(at: Self.noon).day) == 1)
        // A completion offer's leave event an hour late still yields its offer, once: at receipt,
        // its 5-minute delay having passed.
        let late = fresh.run(exit(6, at: Self.noon), book, now: Self.noon + 3_600)
        #expect(late.map(\.outcome) == [.deliver(.notification)])
        #expect(late[0].time == Self.noon + 3_600)
        #expect(fresh.run(exit(6, at: Self.noon), book, now: Self.noon + 3_700).map(\.reason) == [.duplicateEvent])
    }

    /// Kwilt: "Snooze schedules another one-shot notification": the offer returns at the
    /// snooze's end, not counted again against the cap or the spacing; done meanwhile, it does not.
    @Test func snoozedOfferReturns() {
        let (book, _) = World.book()
        var e = try! ReminderEngine()
        #expect(e.run(exit(6, at: Self.noon), book).map(\.time) == [Self.noon + 300])
        #expect(e.apply(.snooze(slot: 2, .fifteenMinutes), in: book, now: Self.noon + 400) == [.cancelScheduled(slot: 2)])
        #expect(e.nextWakeTime == Self.noon + 1_300)
        var out: [ReminderDecision] = []
        e.advance(to: Self.noon + 5_000, in: book, context: .background, into: &out)
        #expect(out.map(\.outcome) == [.deliver(.notification)])
        #expect(out[0].time == Self.noon + 1_300)
        #expect(out[0].origin == .snoozeReturn)
        #expect(e.ledger.offers(onDay: e.localTime(at: Self.noon).day) == 1)
        // Snoozed an hour, then marked done: nothing returns.
        _ = e.apply(.snooze(slot: 2, .oneHour), in: book, now: Self.noon + 1_400)
        _ = e.apply(.complete(slot: 2), in: book, now: Self.noon + 2_000)
        out = []
        e.advance(to: Self.noon + 9_000, in: book, context: .background, into: &out)
        #expect(out.filter(\.isDelivered).isEmpty)
    }

    /// Kwilt: Disable turns the rule off and removes its fence from what the app registers.
    @Test func disableUnregistersTheFence() throws {
        var (book, fences) = World.book()
        var e = try ReminderEngine()
        let effects = e.apply(.disable(slot: 2), in: book, now: Self.noon)
        #expect(effects == [.cancelScheduled(slot: 2), .markDisabled(slot: 2), .replanRegions])
        try book.setRuleEnabled(false, id: "gym-offer")
        let after = try book.geofences()
        #expect(fences.count == 7 && after.count == 6)
        #expect(!after.contains { $0.taskID == "gym-offer" })
    }

    /// A leave rule with a 5-minute delay: the offer is shown exactly 5 minutes after leaving,
    /// and not at all if the activity was marked done meanwhile.
    @Test func delayedOfferAndCompletion() {
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: World.preferences())
        let offer = e.run(exit(6, at: Self.noon), book)
        #expect(offer.count == 1)
        #expect(offer[0].kind == .offer)
        #expect(offer[0].time == Self.noon + 300)
        #expect(e.run(enter(6, at: Self.noon + 9_000), book).isEmpty)  // entering a leave rule's fence: nothing
        // Next day: leave, then mark done before the offer is shown.
        var out: [ReminderDecision] = []
        let tomorrow = Self.noon + 86_400
        e.handle(exit(6, at: tomorrow), in: book, context: .background, now: tomorrow, into: &out)
        let effects = e.apply(.complete(slot: 2), in: book, now: tomorrow + 60)
        #expect(effects == [.cancelScheduled(slot: 2)])  // repeating: no book change
        e.advance(to: tomorrow + 3_600, in: book, context: .background, into: &out)
        #expect(out.filter(\.isDelivered).isEmpty)
        // Done today: the same day's next leave offers nothing; the day after, it offers again.
        #expect(e.run(exit(6, at: tomorrow + 10_000), book).map(\.reason) == [.alreadyDone])
        #expect(e.run(exit(6, at: tomorrow + 86_400), book).filter(\.isDelivered).count == 1)
    }

    /// Do-Not-Disturb queues; at its end the nudge is decided again: delivered, or dropped when
    /// the task was completed meanwhile.
    @Test func doNotDisturbQueue() {
        let (book, _) = World.book()
        var p = World.preferences()
        p.doNotDisturb = [try! DoNotDisturbWindow(start: Self.noon - 60, end: Self.noon + 1_800)]
        var e = try! ReminderEngine(preferences: p)
        var out: [ReminderDecision] = []
        e.handle(enter(3, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        e.handle(enter(0, at: Self.noon + 10), in: book, context: .background, now: Self.noon + 10, into: &out)
        #expect(out.map(\.outcome) == [.queue(until: Self.noon + 1_800), .queue(until: Self.noon + 1_800)])
        _ = e.apply(.complete(slot: 0), in: book, now: Self.noon + 600)
        #expect(e.nextWakeTime == Self.noon + 1_800)
        out = []
        e.advance(to: Self.noon + 7_200, in: book, context: .background, into: &out)
        #expect(out.count == 1)
        #expect(out[0].isDelivered)
        #expect(out[0].item.slot == 1)
        #expect(out[0].time == Self.noon + 1_800 + 120)
    }

    @Test func snoozeMuteDisable() {
        let (book, _) = World.book()
        let t = World.epoch + 9 * 3_600
        var p = World.preferences(zone: "America/New_York", spacing: 0, cooldown: 0)
        p.proximity.dailyCap = 100
        p.offers.dailyCap = 100
        var e = try! ReminderEngine(preferences: p)
        _ = e.apply(.snooze(slot: 1, .oneHour), in: book, now: t)
        #expect(e.run(enter(3, at: t + 3_000), book).first?.reason == .snoozed)
        #expect(e.run(enter(4, at: t + 3_600), book).first?.isDelivered == true)
        // Rest of the day in New York: until local midnight, 05:00Z the next day.
        _ = e.apply(.snooze(slot: 1, .restOfDay), in: book, now: t + 4_000)
        #expect(e.ledger.record(1).snoozedUntil == World.epoch + 29 * 3_600)
        #expect(e.apply(.mute(slot: 0), in: book, now: t) == [.cancelScheduled(slot: 0)])
        #expect(e.run(enter(0, at: t + 5_000), book).first?.reason == .taskMuted)
        _ = e.apply(.unmute(slot: 0), in: book, now: t)
        #expect(e.apply(.disable(slot: 0), in: book, now: t) == [.cancelScheduled(slot: 0), .markDisabled(slot: 0), .replanRegions])
        #expect(e.run(enter(1, at: t + 6_000), book).first?.reason == .taskDisabled)
        #expect(e.apply(.openMap(slot: 0), in: book, now: t) == [.openMap(slot: 0)])
        #expect(e.apply(.dismiss(slot: 0), in: book, now: t).isEmpty)
        #expect(e.apply(.complete(slot: 0), in: book, now: t) == [.cancelScheduled(slot: 0), .markCompleted(slot: 0), .replanRegions])
        // Deleting drops what waits: a bundle with only that task is never shown.
        var out: [ReminderDecision] = []
        e.handle(exit(6, at: t + 20_000), in: book, context: .background, now: t + 20_000, into: &out)
        #expect(e.apply(.delete(slot: 2), in: book, now: t + 20_010) == [.cancelScheduled(slot: 2), .markDeleted(slot: 2), .replanRegions])
        e.advance(to: t + 30_000, in: book, context: .background, into: &out)
        #expect(out.isEmpty)
    }

    @Test func invalidTimesAndUnknownFences() {
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: World.preferences())
        var out: [ReminderDecision] = []
        e.handle(enter(0, at: .nan), in: book, context: .background, now: Self.noon, into: &out)
        e.handle(enter(0, at: Self.noon), in: book, context: .background, now: .infinity, into: &out)
        #expect(out.isEmpty)
        #expect(e.counters.invalidTimes == 2)
        #expect(e.apply(.complete(slot: 0), in: book, now: .nan).isEmpty)
        #expect(e.apply(.snooze(slot: 0, .restOfDay), in: book, now: -.infinity).isEmpty)
        #expect(e.counters.invalidTimes == 4)
        #expect(e.ledger.record(0).isCompleted == false)
        #expect(e.run(enter(999, at: Self.noon), book).map(\.reason) == [.taskMissing])
    }

    /// The ledger round-trips through JSON, and an engine restored from it decides the same.
    @Test func ledgerSnapshotRestores() throws {
        let (book, _) = World.book()
        var a = try ReminderEngine(preferences: World.preferences(spacing: 600, cooldown: 600))
        var out: [ReminderDecision] = []
        a.handle(enter(0, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        let data = try JSONEncoder().encode(a.ledger)
        var b = try ReminderEngine(
            preferences: World.preferences(spacing: 600, cooldown: 600),
            ledger: try JSONDecoder().decode(ReminderLedger.self, from: data))
        #expect(b.ledger == a.ledger)
        var outA: [ReminderDecision] = [], outB: [ReminderDecision] = []
        for (k, fence) in [3, 6, 0, 4, 3].enumerated() {
            let t = Self.noon + Double(k) * 700
            a.handle(exit(Int32(fence), at: t), in: book, context: .background, now: t, into: &outA)
            a.handle(enter(Int32(fence), at: t + 1), in: book, context: .background, now: t + 1, into: &outA)
            b.handle(exit(Int32(fence), at: t), in: book, context: .background, now: t, into: &outB)
            b.handle(enter(Int32(fence), at: t + 1), in: book, context: .background, now: t + 1, into: &outB)
        }
        #expect(outA == outB)
        #expect(!outA.isEmpty)
    }
}
