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

/// Lapse check-ins (AirFit's engagement check): when the user has been away strictly more than
/// ``LapseCheckInPolicy/lapseSeconds`` (default 3 days), at most one check-in per lapse, unless
/// the user chose `give_me_space`. `light_nudge` and `check_in_on_me` both get one; the
/// provider sees which, to set the tone. It is scheduled at the policy's local time of day and
/// shown with the `GENERAL_CHECK_IN` category; it counts against no offer or nudge cap.
public enum LapseCheckIn {
    /// The request if a check-in is due at `now`: a last-active time is known, the lapse has
    /// passed, the preference allows it and none was sent since the user was last active.
    public static func due(ledger: ReminderLedger, preferences: ReminderPreferences, now: Double) -> CheckInRequest? {
        let policy = preferences.checkIns
        guard policy.absence != .giveMeSpace, isLapsed(ledger: ledger, policy: policy, now: now) else { return nil }
        return CheckInRequest(
            absence: policy.absence, daysAway: Int((now - ledger.lastActive) / 86_400),
            localeIdentifier: preferences.localeIdentifier)
    }

    /// Whether the user has been away strictly longer than the policy's lapse at `now` and no
    /// check-in was made since they were last active.
    public static func isLapsed(ledger: ReminderLedger, policy: LapseCheckInPolicy, now: Double) -> Bool {
        ledger.lastActive > ReminderLedger.never && now - ledger.lastActive > policy.lapseSeconds
            && ledger.lastCheckIn < ledger.lastActive
    }

    /// Plain wording for when the provider fails or is too slow.
    public static func fallback(for request: CheckInRequest) -> NotificationContent {
        let body: String
        switch request.absence {
        case .checkInOnMe: body = "It's been \(request.daysAway) days. How are you doing? Your reminders are here when you need them."
        case .lightNudge, .giveMeSpace: body = "Your reminders are here when you're ready."
        }
        return NotificationContent(
            title: "Checking in", body: body, categoryIdentifier: NotificationCatalog.checkIn.identifier,
            userInfo: ["kind": ReminderKind.checkIn.description], sound: .default)
    }

    /// The provider's content, or ``fallback(for:)`` when it throws or takes longer than
    /// `timeoutSeconds` on `clock`. Returns the content and whether it is the fallback.
    public static func content(
        for request: CheckInRequest, provider: some CheckInContentProviding, clock: some TimeSource,
        timeoutSeconds: Double = 5
    ) async -> (NotificationContent, usedFallback: Bool) {
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

extension ReminderEngine {
    /// Records that the user used the app at `now` (Unix seconds): ends a lapse. A check-in
    /// decided before `now` and not yet shown by `now` is withdrawn: the returned decision
    /// suppresses it at `now` with `.userReturned` (origin ``ReminderDecision/Origin/withdrawn``);
    /// hand it to ``NotificationDispatcher/dispatch(_:book:unit:ledger:analytics:now:checkInContent:)``,
    /// which cancels the scheduled request. Nil otherwise (an activity time older than the
    /// check-in's decision, as a late report of past use, withdraws nothing).
    @discardableResult
    public mutating func markActive(at now: Double) -> ReminderDecision? {
        guard now.isFinite else { counters.invalidTimes += 1; return nil }
        ledger.markActive(at: now)
        guard let at = ledger.scheduledCheckIn, now >= ledger.lastCheckIn else { return nil }
        ledger.scheduledCheckIn = nil
        guard now < at else { return nil }  // shown already
        let item = ReminderItem(slot: -1, kind: .checkIn, fence: -1, distanceMeters: 0, eventTime: ledger.lastCheckIn)
        counters.delivered -= 1
        counters.suppressed += 1
        return ReminderDecision(
            time: now, kind: .checkIn, outcome: .suppress(.userReturned), localDay: clock.localTime(at: now).day,
            item: item, items: [], until: nil, origin: .withdrawn)
    }

    /// Decides a lapse check-in at `now` (the daily engagement check): nil when the user is not
    /// lapsed (see ``LapseCheckIn/isLapsed(ledger:policy:now:)``); else a `.checkIn` decision:
    /// suppressed as `.userPrefersSpace` for `give_me_space`, `.globallyDisabled`, or
    /// `.notificationsOff`; or delivered (by notification; in-app when notifications are not
    /// allowed and ``ReminderPreferences/requiresNotifications`` is false) at the next local
    /// ``LapseCheckInPolicy/checkInMinute`` at or after `now` (moved to the end of a
    /// Do-Not-Disturb period it falls in, and on past every period that end falls in). A delivery ends the lapse's check-ins; it is withdrawn
    /// if the user comes back before it is shown (``markActive(at:)``).
    public mutating func checkIn(context: AppContext, now: Double) -> ReminderDecision? {
        guard now.isFinite else { counters.invalidTimes += 1; return nil }
        let t = ledger.observe(now)
        let p = preferences
        guard LapseCheckIn.isLapsed(ledger: ledger, policy: p.checkIns, now: t) else { return nil }
        let item = ReminderItem(slot: -1, kind: .checkIn, fence: -1, distanceMeters: 0, eventTime: t)
        var reason: SuppressionReason?
        if !p.isEnabled {
            reason = .globallyDisabled
        } else if p.checkIns.absence == .giveMeSpace {
            reason = .userPrefersSpace
        } else if !context.hasNotificationPermission && p.requiresNotifications {
            reason = .notificationsOff
        }
        if let reason {
            counters.suppressed += 1
            return ReminderDecision(
                time: t, kind: .checkIn, outcome: .suppress(reason), localDay: clock.localTime(at: t).day,
                item: item, items: [], until: nil)
        }
        var at = clock.next(minute: p.checkIns.checkInMinute, atOrAfter: t)
        var origin = ReminderDecision.Origin.trigger
        // The end of the period it falls in, or of the next one that holds that end, and so on.
        while let dnd = p.doNotDisturb.first(where: { $0.start <= at && at < $0.end }) { at = dnd.end; origin = .released }
        // Without notification permission (and not required): the in-app inbox.
        let channel: DeliveryChannel = context.hasNotificationPermission ? .notification : .inApp
        ledger.lastCheckIn = t
        ledger.scheduledCheckIn = at
        counters.delivered += 1
        return ReminderDecision(
            time: at, kind: .checkIn, outcome: .deliver(channel), localDay: clock.localTime(at: at).day,
            item: item, items: [item], until: nil, origin: origin)
    }
}
