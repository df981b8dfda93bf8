import Foundation
import Geofencing
import Testing
@testable import Reminders

/// Every suppression reason of the chain, in chain order: start with every check failing, then
/// repair them one by one; each step must report exactly the next reason.
@Suite struct EligibilityChainTests {
    struct Knobs {
        var enabled = false
        var location = false
        var notifications = false
        var boundToMissing = true
        var deleted = true
        var muted = true
        var disabled = true
        var done = true
        var snoozed = true
        var cooldown = true
        var capReached = true
        var spacing = true
        var dense = true
        var quiet = true
        var dnd = true
    }

    /// 2026-01-05 23:00 UTC: inside quiet hours 22:00-07:00.
    static let now = World.epoch + 23 * 3_600

    static func decide(_ k: Knobs) -> ReminderDecision {
        var (book, _) = World.book()
        // Fence 50 is the event's fence: bound to a slot that does not exist, or to the pharmacy.
        book.bind(
            fence: 50, to: k.boundToMissing ? 40 : 0, kind: .approach, distanceMeters: 1609.344,
            latitude: World.pharmacy.latitude, longitude: World.pharmacy.longitude)
        if k.done { try! book.setStatus(.completed, of: "rx") }
        if k.deleted { try! book.setStatus(.deleted, of: "rx") }
        var p = World.preferences(quiet: k.quiet ? try! QuietHours(from: "22:00", to: "07:00") : nil, spacing: 3_600)
        p.isEnabled = k.enabled
        p.proximity.denseArea = DenseAreaCooldown(radiusMeters: 1_000, cooldownSeconds: 7_200)
        if k.snoozed { p.snoozedUntil = now + 86_400 }
        if k.dnd { p.doNotDisturb = [try! DoNotDisturbWindow(start: now - 60, end: now + 3_600)] }
        var engine = try! ReminderEngine(preferences: p)
        if k.muted { _ = engine.apply(.mute(slot: 0), in: book, now: now - 1_000) }
        if k.disabled { _ = engine.apply(.disable(slot: 0), in: book, now: now - 1_000) }
        if k.cooldown { engine.ledger.records[0, default: .init()].lastNudgeTime = now - 600 }
        if k.capReached {
            let today = engine.localTime(at: now).day
            engine.ledger.count(onDay: today, offer: false)
            engine.ledger.count(onDay: today, offer: false)
        }
        // Spacing: a nudge of another slot 30 minutes ago, 200 m away (dense) or 50 km away.
        if k.spacing || k.dense {
            engine.ledger.lastNudgeTime = k.spacing ? now - 1_800 : now - 3_700
            engine.ledger.lastNudgeLatitude = World.pharmacy.latitude + (k.dense ? 0.0018 : 0.45)
            engine.ledger.lastNudgeLongitude = World.pharmacy.longitude
        }
        let context = AppContext(hasLocationPermission: k.location, hasNotificationPermission: k.notifications, isForeground: false)
        var out: [ReminderDecision] = []
        engine.handle(enter(50, at: now), in: book, context: context, now: now, into: &out)
        engine.advance(to: now + 3 * 3_600, in: book, context: context, into: &out)
        return out[0]
    }

    @Test func reasonsInChainOrder() {
        var k = Knobs()
        let steps: [(SuppressionReason, (inout Knobs) -> Void)] = [
            (.globallyDisabled, { $0.enabled = true }),
            (.locationPermissionMissing, { $0.location = true }),
            (.notificationsOff, { $0.notifications = true }),
            (.taskMissing, { $0.boundToMissing = false }),
            (.taskDeleted, { $0.deleted = false }),
            (.taskMuted, { $0.muted = false }),
            (.taskDisabled, { $0.disabled = false }),
            (.alreadyDone, { $0.done = false }),
            (.snoozed, { $0.snoozed = false }),
            (.taskCooldown, { $0.cooldown = false }),
            (.dailyCap, { $0.capReached = false }),
            (.globalSpacing, { $0.spacing = false }),
            (.denseAreaCooldown, { $0.dense = false }),
            (.quietHours, { $0.quiet = false })
        ]
        for (reason, repair) in steps {
            let d = Self.decide(k)
            #expect(d.reason == reason, "expected \(reason), got \(d.outcome)")
            repair(&k)
        }
        // Do-Not-Disturb queues rather than suppresses; without it the nudge is delivered.
        let queued = Self.decide(k)
        #expect(queued.outcome == .queue(until: Self.now + 3_600))
        k.dnd = false
        let delivered = Self.decide(k)
        #expect(delivered.outcome == .deliver(.notification))
        #expect(delivered.time == Self.now + 120)  // the end of its bundle window
    }

    @Test func timeBoundReasonsSayUntilWhen() {
        var k = Knobs(
            enabled: true, location: true, notifications: true, boundToMissing: false, deleted: false, muted: false,
            disabled: false, done: false, snoozed: false, cooldown: true)
        let d = Self.decide(k)
        #expect(d.reason == .taskCooldown)
        #expect(d.until == Self.now - 600 + 7_200)
        k.cooldown = false
        k.capReached = false
        let spacing = Self.decide(k)
        #expect(spacing.reason == .globalSpacing)
        #expect(spacing.until == Self.now - 1_800 + 3_600)
        let (book, _) = World.book()
        #expect(spacing.explanation(in: book).hasPrefix("suppressed (global_spacing until "))
    }

    /// Notifications off: in the foreground the offer is shown in-app at once; in the background
    /// it is suppressed, or kept for the inbox when notifications are not required.
    @Test func notificationsOffChannels() {
        let (book, _) = World.book()
        let now = World.epoch + 12 * 3_600
        let off = AppContext(hasLocationPermission: true, hasNotificationPermission: false, isForeground: false)
        var e = try! ReminderEngine(preferences: World.preferences())
        #expect(e.run(enter(0, at: now), book, off).first?.reason == .notificationsOff)
        var fg = try! ReminderEngine(preferences: World.preferences())
        let shown = fg.run(enter(0, at: now), book, AppContext(hasNotificationPermission: false, isForeground: true))
        #expect(shown.first?.outcome == .deliver(.inApp))
        #expect(shown.first?.time == now)  // foreground: no bundle window
        var p = World.preferences()
        p.requiresNotifications = false
        var inbox = try! ReminderEngine(preferences: p)
        #expect(inbox.run(enter(0, at: now), book, off).first?.outcome == .deliver(.inApp))
    }

    @Test func invalidPreferencesNameTheField() {
        var p = ReminderPreferences()
        p.offers.dailyCap = -1
        #expect(throws: ReminderError.invalidPreference(field: "offer_daily_cap", message: "must be >= 0, got -1")) { try p.validate() }
        p = ReminderPreferences()
        p.proximity.dailyCap = -2
        #expect(throws: ReminderError.invalidPreference(field: "nudge_daily_cap", message: "must be >= 0, got -2")) { try p.validate() }
        p = ReminderPreferences()
        p.checkIns.checkInMinute = 1440
        #expect(throws: ReminderError.self) { try p.validate() }
        p = ReminderPreferences()
        p.offers.minimumSpacingSeconds = .nan
        #expect(throws: ReminderError.self) { try ReminderEngine(preferences: p) }
        #expect(throws: ReminderError.invalidPreference(field: "quiet_end", message: "expected a 24-hour time HH:mm, found '24:00'")) {
            try QuietHours(from: "22:00", to: "24:00")
        }
    }
}
