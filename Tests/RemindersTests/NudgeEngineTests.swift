import Foundation
import Geofencing
import Testing
@testable import Reminders

@Suite struct NudgeEngineTests {
    static let noon = World.epoch + 12 * 3_600

    /// Entering the 5-, 3- and 1-mile rings of one POI at once is one nudge (the nearest ring
    /// named); further rings of the same approach are `already_nudged`, until the widest is left.
    @Test func tiersOfOnePOIAreOneNudge() {
        let (book, _) = World.book()
        var e = try! NudgeEngine(preferences: World.preferences(spacing: 0, cooldown: 0))
        var out: [NudgeDecision] = []
        for fence: Int32 in [0, 1, 2] { e.handle(enter(fence, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out) }
        e.advance(to: Self.noon + 600, in: book, context: .background, into: &out)
        let delivered = out.filter(\.isDelivered)
        #expect(delivered.count == 1)
        #expect(delivered[0].items.count == 1)
        #expect(delivered[0].item.distanceMeters == 1609.344)     // the 1-mile ring
        #expect(out.filter { $0.reason == .alreadyNudged }.count == 2)
        // Driving on: the 1-mile ring again later in the same approach says nothing new.
        out = []
        e.handle(exit(2, at: Self.noon + 900), in: book, context: .background, now: Self.noon + 900, into: &out)
        e.handle(enter(2, at: Self.noon + 1_200), in: book, context: .background, now: Self.noon + 1_200, into: &out)
        #expect(out.map(\.reason) == [.alreadyNudged])
        // Leaving the widest ring ends the approach: the next one may nudge again.
        out = []
        e.handle(exit(0, at: Self.noon + 2_000), in: book, context: .background, now: Self.noon + 2_000, into: &out)
        e.handle(enter(0, at: Self.noon + 3_000), in: book, context: .background, now: Self.noon + 3_000, into: &out)
        e.advance(to: Self.noon + 4_000, in: book, context: .background, into: &out)
        #expect(out.filter(\.isDelivered).count == 1)
        #expect(e.counters.ignored == 2)    // the two exits
    }

    /// Two tasks triggered within the window: one bundled notification listing both, counted once.
    @Test func bundleCountsOnce() {
        let (book, _) = World.book()
        var e = try! NudgeEngine(preferences: World.preferences(cap: 1))
        var out: [NudgeDecision] = []
        e.handle(enter(0, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        e.handle(enter(3, at: Self.noon + 100), in: book, context: .background, now: Self.noon + 100, into: &out)
        #expect(out.isEmpty)                          // both wait for the window to close
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
        #expect(out.first?.reason == .taskCooldown)   // home was in the bundle
    }

    @Test func duplicatesAndLateEvents() {
        let (book, _) = World.book()
        var e = try! NudgeEngine(preferences: World.preferences())
        let first = e.run(enter(3, at: Self.noon), book)
        #expect(first.filter(\.isDelivered).count == 1)
        // The same OS event again, at once and an hour late.
        #expect(e.run(enter(3, at: Self.noon), book, now: Self.noon + 5).map(\.reason) == [.duplicateEvent])
        #expect(e.run(enter(3, at: Self.noon), book, now: Self.noon + 3_600).map(\.reason) == [.staleEvent])
        // A late event that was never seen is stale too: an approach nudge an hour late is wrong.
        var fresh = try! NudgeEngine(preferences: World.preferences())
        #expect(fresh.run(enter(0, at: Self.noon), book, now: Self.noon + 3_600).map(\.reason) == [.staleEvent])
        #expect(e.ledger.count(onDay: e.localTime(at: Self.noon).day) == 1)
    }

    /// A leave rule with a 5-minute delay: the offer is shown 5 minutes after leaving (plus the
    /// bundle window), and not at all if the activity was marked done meanwhile.
    @Test func delayedOfferAndCompletion() {
        let (book, _) = World.book()
        var e = try! NudgeEngine(preferences: World.preferences())
        let offer = e.run(exit(6, at: Self.noon), book)
        #expect(offer.count == 1)
        #expect(offer[0].kind == .offer)
        #expect(offer[0].time == Self.noon + 300 + 120)
        #expect(e.run(enter(6, at: Self.noon + 9_000), book).isEmpty)   // entering a leave rule's fence: nothing
        // Next day: leave, then mark done before the offer is shown.
        var out: [NudgeDecision] = []
        let tomorrow = Self.noon + 86_400
        e.handle(exit(6, at: tomorrow), in: book, context: .background, now: tomorrow, into: &out)
        let effects = e.apply(.complete(slot: 2), in: book, now: tomorrow + 60)
        #expect(effects == [.cancelScheduled(slot: 2)])                 // repeating: no book change
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
        var e = try! NudgeEngine(preferences: p)
        var out: [NudgeDecision] = []
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
        p.dailyCap = 100
        var e = try! NudgeEngine(preferences: p)
        _ = e.apply(.snooze(slot: 1, .oneHour), in: book, now: t)
        #expect(e.run(enter(3, at: t + 3_000), book).first?.reason == .snoozed)
        #expect(e.run(enter(4, at: t + 3_600), book).first?.isDelivered == true)
        // Rest of the day in New York: until local midnight, 05:00Z the next day.
        _ = e.apply(.snooze(slot: 1, .restOfDay), in: book, now: t + 4_000)
        #expect(e.ledger.record(1).snoozedUntil == World.epoch + 29 * 3_600)
        #expect(e.apply(.mute(slot: 0), in: book, now: t) == [.cancelScheduled(slot: 0)])
        #expect(e.run(enter(0, at: t + 5_000), book).first?.reason == .taskMuted)
        _ = e.apply(.unmute(slot: 0), in: book, now: t)
        #expect(e.apply(.disable(slot: 0), in: book, now: t) == [.cancelScheduled(slot: 0), .replanRegions])
        #expect(e.run(enter(1, at: t + 6_000), book).first?.reason == .taskDisabled)
        #expect(e.apply(.openMap(slot: 0), in: book, now: t) == [.openMap(slot: 0)])
        #expect(e.apply(.dismiss(slot: 0), in: book, now: t).isEmpty)
        #expect(e.apply(.complete(slot: 0), in: book, now: t) == [.cancelScheduled(slot: 0), .markCompleted(slot: 0), .replanRegions])
        // Deleting drops what waits: a bundle with only that task is never shown.
        var out: [NudgeDecision] = []
        e.handle(exit(6, at: t + 20_000), in: book, context: .background, now: t + 20_000, into: &out)
        #expect(e.apply(.delete(slot: 2), in: book, now: t + 20_010) == [.cancelScheduled(slot: 2), .markDeleted(slot: 2), .replanRegions])
        e.advance(to: t + 30_000, in: book, context: .background, into: &out)
        #expect(out.isEmpty)
    }

    @Test func invalidTimesAndUnknownFences() {
        let (book, _) = World.book()
        var e = try! NudgeEngine(preferences: World.preferences())
        var out: [NudgeDecision] = []
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
        var a = try NudgeEngine(preferences: World.preferences(spacing: 600, cooldown: 600))
        var out: [NudgeDecision] = []
        a.handle(enter(0, at: Self.noon), in: book, context: .background, now: Self.noon, into: &out)
        let data = try JSONEncoder().encode(a.ledger)
        var b = try NudgeEngine(preferences: World.preferences(spacing: 600, cooldown: 600),
                                ledger: try JSONDecoder().decode(ReminderLedger.self, from: data))
        #expect(b.ledger == a.ledger)
        var outA: [NudgeDecision] = [], outB: [NudgeDecision] = []
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
