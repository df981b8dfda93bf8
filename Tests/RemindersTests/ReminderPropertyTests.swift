import Foundation
import Geodesy
import Geofencing
import Testing
@testable import Reminders

/// Random event streams (seeded; the seed is in every failure message) through random
/// preferences; the delivered decisions are checked against the rules with Foundation's Calendar
/// as the independent clock.
@Suite struct ReminderPropertyTests {
    struct Stream {
        var preferences: ReminderPreferences
        /// (event, now, foreground)
        var steps: [(TransitionEvent, Double, Bool)] = []
        var completions: [(slot: Int32, at: Double)] = []
    }

    static let zones = ["America/New_York", "Asia/Tokyo", "Europe/London", "America/Los_Angeles", "UTC"]

    static func makeStream(seed: UInt64) -> Stream {
        var rng = SplitMix64(seed: seed)
        var p = ReminderPreferences()
        p.timeZone = World.zone(zones[Int(rng.next() % UInt64(zones.count))])
        p.offers.dailyCap = Int(rng.next() % 4)
        p.offers.minimumSpacingSeconds = [0, 1_800, 21_600][Int(rng.next() % 3)]
        p.offers.defaultCooldownSeconds = [0, 3_600, 7_200][Int(rng.next() % 3)]
        p.offers.quietHours = rng.next() % 4 == 0 ? nil : try! QuietHours(start: Int(rng.next() % 1440), end: Int(rng.next() % 1440))
        p.proximity.dailyCap = p.offers.dailyCap
        p.proximity.minimumSpacingSeconds = p.offers.minimumSpacingSeconds
        p.proximity.defaultCooldownSeconds = p.offers.defaultCooldownSeconds
        p.proximity.quietHours = p.offers.quietHours
        p.proximity.bundleWindowSeconds = [0, 120][Int(rng.next() % 2)]
        var s = Stream(preferences: p)
        // Start in March so that spring-forward days come up (New York 2026-03-08, London 03-29).
        var now = World.epoch + 60 * 86_400 + rng.nextUnit() * 86_400
        for _ in 0..<400 {
            let r = rng.nextUnit()
            if r < 0.04 {
                now -= rng.nextUnit() * 2 * 86_400
            }  // the clock goes backwards
            else {
                now += rng.nextUnit() * (r < 0.5 ? 600 : 3 * 3_600)
            }
            let fence = Int32(rng.next() % 7)
            let kind: TransitionKind = [.enter, .exit, .dwell][Int(rng.next() % 3)]
            let lag = rng.nextUnit() < 0.05 ? 2_000 : rng.nextUnit() * 60
            let event = TransitionEvent(device: 0, fence: fence, kind: kind, time: now - lag)
            s.steps.append((event, now, rng.nextUnit() < 0.1))
            if rng.nextUnit() < 0.1 { s.steps.append((event, now + rng.nextUnit() * 100, false)) }  // re-delivered
            if rng.nextUnit() < 0.03 { s.completions.append((Int32(rng.next() % 3), now)) }
        }
        return s
    }

    /// Runs a stream; returns the decisions and each completion at the ledger's time (the clock
    /// never runs backwards there).
    static func run(_ s: Stream, duplicate: Bool = false) -> [ReminderDecision] { runWithCompletions(s, duplicate: duplicate).0 }

    static func runWithCompletions(_ s: Stream, duplicate: Bool = false) -> ([ReminderDecision], [(slot: Int32, at: Double)]) {
        var done: [(slot: Int32, at: Double)] = []
        let (book, _) = World.book()
        var e = try! ReminderEngine(preferences: s.preferences)
        var out: [ReminderDecision] = []
        var completions = s.completions[...]
        var previous = AppContext.background
        for (event, now, foreground) in s.steps {
            // What fell due before this step was shown in the app state of the step before.
            e.advance(to: now, in: book, context: previous, into: &out)
            while let c = completions.first, c.at <= now {
                _ = e.apply(.complete(slot: c.slot), in: book, now: c.at)
                done.append((c.slot, e.ledger.highWater))
                completions.removeFirst()
            }
            let context = AppContext(isForeground: foreground)
            for _ in 0..<(duplicate ? 2 : 1) { e.handle(event, in: book, context: context, now: now, into: &out) }
            previous = context
        }
        e.advance(to: s.steps.last!.1 + 86_400, in: book, context: .background, into: &out)
        return (out, done)
    }

    @Test(arguments: 0..<40)
    func invariantsHold(seed: Int) {
        let s = Self.makeStream(seed: UInt64(seed) &* 0x9E37_79B9)
        let p = s.preferences
        let (decisions, completions) = Self.runWithCompletions(s)
        let delivered = decisions.filter(\.isDelivered).sorted { $0.time < $1.time }
        // Offers and nudges have their own rails (set equal here): caps and spacing per product.
        var perDay: [String: Int] = [:]
        var lastOfSlot: [Int32: Double] = [:]
        var previous: [Bool: Double] = [:]
        for d in delivered {
            let oracle = World.calendarLocal(d.time, p.timeZone)
            let isOffer = d.kind == .offer
            #expect(LocalTime.dateString(day: d.localDay) == oracle.date, "seed \(seed)")
            perDay["\(isOffer) \(oracle.date)", default: 0] += 1
            if let q = p.offers.quietHours { #expect(!q.contains(minute: Int16(oracle.minute)), "seed \(seed): quiet at \(d.time)") }
            if let prev = previous[isOffer] {
                #expect(d.time - prev >= p.offers.minimumSpacingSeconds, "seed \(seed): spacing at \(d.time)")
            }
            previous[isOffer] = d.time
            for item in d.items {
                if let last = lastOfSlot[item.slot] {
                    #expect(d.time - last >= p.offers.defaultCooldownSeconds, "seed \(seed): cooldown of slot \(item.slot) at \(d.time)")
                }
                lastOfSlot[item.slot] = d.time
                // Never after completion: one-shot slot 0 for good, repeating slots for that local date.
                for c in completions where c.slot == item.slot && c.at < d.time {
                    if item.slot == 0 {
                        Issue.record("seed \(seed): slot 0 delivered at \(d.time) after completion at \(c.at)")
                    } else if World.calendarLocal(c.at, p.timeZone).date == oracle.date {
                        Issue.record("seed \(seed): slot \(item.slot) delivered at \(d.time) on the day it was completed")
                    }
                }
            }
        }
        for (day, n) in perDay { #expect(n <= p.offers.dailyCap, "seed \(seed): \(n) nudges on \(day)") }
        // Every OS event delivered twice changes nothing that is shown.
        #expect(Self.run(s, duplicate: true).filter(\.isDelivered) == decisions.filter(\.isDelivered), "seed \(seed)")
    }

    /// The streams are not vacuous: across the seeds, nudges are delivered and every common
    /// reason occurs.
    @Test func streamsExerciseTheChain() {
        var reasons = Set<SuppressionReason>()
        var delivered = 0
        for seed in 0..<40 {
            let d = Self.run(Self.makeStream(seed: UInt64(seed) &* 0x9E37_79B9))
            delivered += d.filter(\.isDelivered).count
            for x in d { if let r = x.reason { reasons.insert(r) } }
        }
        #expect(delivered > 50)
        #expect(
            reasons.isSuperset(of: [
                .duplicateEvent, .staleEvent, .alreadyNudged, .alreadyDone, .taskCooldown,
                .dailyCap, .globalSpacing, .quietHours
            ]))
    }
}
