/// What a check-in is about: the user's absence preference, whole days since last active, and
/// the locale for wording.
public struct CheckInRequest: Hashable, Sendable, Codable {
    /// The user's absence preference (never `.giveMeSpace` in a due request).
    public var absence: AbsencePreference
    /// Whole days since the user was last active.
    public var daysAway: Int
    /// The user's locale, for wording.
    public var localeIdentifier: String

    /// A request.
    public init(absence: AbsencePreference, daysAway: Int, localeIdentifier: String) {
        self.absence = absence
        self.daysAway = daysAway
        self.localeIdentifier = localeIdentifier
    }
}

/// Lapse check-ins: after ``ReminderPreferences/lapseSeconds`` (default 3 days) without the
/// app being used, at most one check-in per lapse, unless the user chose `give_me_space`.
/// `light_nudge` and `check_in_on_me` both get one; the provider sees which, to set the tone.
/// The check-in goes through the global part of the chain (enabled, permissions, daily cap,
/// spacing, quiet hours; Do-Not-Disturb suppresses it as quiet hours do, since the lapse still
/// holds at the next call) and counts against the cap.
public enum LapseCheckIn {
    /// The request if a check-in is due at `now`: a last-active time is known, the lapse has
    /// passed, the preference allows it and none was sent since the user was last active.
    public static func due(ledger: ReminderLedger, preferences: ReminderPreferences, now: Double) -> CheckInRequest? {
        guard preferences.absence != .giveMeSpace, ledger.lastActive > ReminderLedger.never,
              now - ledger.lastActive >= preferences.lapseSeconds, ledger.lastCheckIn < ledger.lastActive else { return nil }
        return CheckInRequest(absence: preferences.absence, daysAway: Int((now - ledger.lastActive) / 86_400),
                              localeIdentifier: preferences.localeIdentifier)
    }

    /// Plain wording for when the provider fails or is too slow.
    public static func fallback(for request: CheckInRequest) -> NotificationContent {
        let body: String
        switch request.absence {
        case .checkInOnMe: body = "It's been \(request.daysAway) days. How are you doing? Your reminders are here when you need them."
        case .lightNudge, .giveMeSpace: body = "Your reminders are here when you're ready."
        }
        return NotificationContent(title: "Checking in", body: body, categoryIdentifier: NotificationCatalog.checkIn.identifier,
                                   userInfo: ["kind": NudgeKind.checkIn.description])
    }

    /// The provider's content, or ``fallback(for:)`` when it throws or takes longer than
    /// `timeoutSeconds` on `clock`. Returns the content and whether it is the fallback.
    public static func content(for request: CheckInRequest, provider: some CheckInContentProviding, clock: some ReminderClock,
                               timeoutSeconds: Double = 5) async -> (NotificationContent, usedFallback: Bool) {
        let result: NotificationContent? = await withTaskGroup(of: NotificationContent?.self) { group in
            group.addTask { try? await provider.content(for: request) }
            group.addTask {
                try? await clock.sleep(seconds: timeoutSeconds)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let result { return (result, false) }
        return (fallback(for: request), true)
    }
}

extension NudgeEngine {
    /// Records that the user used the app at `now` (Unix seconds): ends a lapse.
    public mutating func markActive(at now: Double) {
        ledger.markActive(at: now)
    }

    /// Decides a lapse check-in at `now`: nil when none is due (see ``LapseCheckIn/due(ledger:preferences:now:)``),
    /// else a `.checkIn` decision, delivered (and counted against the cap, spacing and "one per
    /// lapse") or suppressed with the reason.
    public mutating func checkIn(context: AppContext, now: Double) -> NudgeDecision? {
        guard now.isFinite else { counters.invalidTimes += 1; return nil }
        let t = ledger.observe(now)
        guard LapseCheckIn.due(ledger: ledger, preferences: preferences, now: t) != nil else { return nil }
        let local = clock.localTime(at: t)
        let item = NudgeItem(slot: -1, kind: .checkIn, fence: -1, distanceMeters: 0, eventTime: t)
        let p = preferences
        var reason: SuppressionReason?
        var channel = context.isForeground ? DeliveryChannel.inApp : .notification
        if !p.isEnabled { reason = .globallyDisabled }
        else if !context.hasNotificationPermission && !context.isForeground {
            if p.requiresNotifications { reason = .notificationsOff } else { channel = .inApp }
        }
        if reason == nil {
            if ledger.count(onDay: local.day) >= p.dailyCap { reason = .dailyCap }
            else if t - ledger.lastNudgeTime < p.minimumSpacingSeconds { reason = .globalSpacing }
            else if let q = p.quietHours, q.contains(minute: local.minute) { reason = .quietHours }
            else if p.doNotDisturb.contains(where: { $0.start <= t && t < $0.end }) { reason = .quietHours }
        }
        if let reason {
            counters.suppressed += 1
            return NudgeDecision(time: t, kind: .checkIn, outcome: .suppress(reason), localDay: local.day, item: item, items: [], until: nil)
        }
        ledger.lastCheckIn = t
        ledger.countNudge(onDay: local.day)
        ledger.lastNudgeTime = t
        counters.delivered += 1
        return NudgeDecision(time: t, kind: .checkIn, outcome: .deliver(channel), localDay: local.day, item: item, items: [item], until: nil)
    }
}
