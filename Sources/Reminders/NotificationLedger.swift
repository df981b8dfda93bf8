/// The app's record of the notifications it scheduled, and the source of the notification
/// events. The OS gives no "delivered" callback in the background, so firing is estimated on
/// ``reconcile(pendingIDs:now:converter:userID:)``:
/// - a one-shot whose time has passed and that the OS no longer lists as pending fired, once;
/// - a daily reminder fired once per local day whose occurrence (its local time that day, in
///   the zone of the clock passed in) lies after it was scheduled, before it was cancelled and
///   not after `now`;
/// - a notification received in the foreground or opened counts as fired for that occurrence.
/// Reconcile is idempotent: calling it twice with the same arguments adds nothing.
public struct NotificationLedger: Hashable, Sendable, Codable {
    /// One request and what is known of it.
    public struct Entry: Hashable, Sendable, Codable {
        /// The request as scheduled.
        public var request: NotificationRequest
        /// Unix seconds.
        public var scheduledAt: Double
        /// Unix seconds, nil while not cancelled.
        public var cancelledAt: Double?
        /// One-shot: counted as fired.
        public var fired = false
        /// Daily: the last local day counted as fired (`Int32.min` = none).
        public var lastFiredDay = Int32.min
        /// Times counted as fired.
        public var firedCount = 0
    }

    /// Entries by request id.
    public private(set) var entries: [String: Entry] = [:]

    /// An empty ledger.
    public init() {}

    private func event(_ name: String, _ id: String, _ time: Double, _ userID: PseudonymousID, _ extra: [String: String] = [:]) -> AnalyticsEvent? {
        guard let e = entries[id] else { return nil }
        return AnalyticsEvent(
            name: name, time: time, userID: userID.value,
            properties: ["notification_id": id, "notification_type": e.request.type.rawValue].merging(extra) { a, _ in a })
    }

    /// Records a request handed to the OS at `now`; returns `notification_scheduled`.
    public mutating func scheduled(_ request: NotificationRequest, now: Double, userID: PseudonymousID) -> AnalyticsEvent {
        entries[request.id] = Entry(request: request, scheduledAt: now)
        return event(AnalyticsName.notificationScheduled, request.id, now, userID)!
    }

    /// Records a cancellation; returns `notification_cancelled`, or nil for an unknown or
    /// already cancelled id.
    public mutating func cancelled(id: String, now: Double, userID: PseudonymousID) -> AnalyticsEvent? {
        guard entries[id] != nil, entries[id]!.cancelledAt == nil else { return nil }
        entries[id]!.cancelledAt = now
        return event(AnalyticsName.notificationCancelled, id, now, userID)
    }

    /// The OS showed it while the app was in the foreground: `notification_received`; it fired.
    public mutating func received(id: String, now: Double, converter clock: inout LocalTimeConverter, userID: PseudonymousID) -> AnalyticsEvent? {
        markFired(id, now, &clock)
        return event(AnalyticsName.notificationReceived, id, now, userID)
    }

    /// The user opened it (or tapped an action): `notification_opened`; it fired.
    public mutating func opened(
        id: String, now: Double, converter clock: inout LocalTimeConverter, userID: PseudonymousID,
        action: String? = nil
    ) -> AnalyticsEvent? {
        markFired(id, now, &clock)
        return event(AnalyticsName.notificationOpened, id, now, userID, action.map { ["action": $0] } ?? [:])
    }

    private mutating func markFired(_ id: String, _ now: Double, _ clock: inout LocalTimeConverter) {
        guard var e = entries[id] else { return }
        switch e.request.trigger {
        case .at:
            if !e.fired { e.fired = true; e.firedCount += 1 }
        case .daily(let minute):
            // The occurrence shown is today's if its time has come, else yesterday's.
            var day = clock.localTime(at: now).day
            if clock.instant(day: day, minute: minute) > now { day -= 1 }
            if day > e.lastFiredDay { e.lastFiredDay = day; e.firedCount += 1 }
        }
        entries[id] = e
    }

    /// Counts what fired since the last reconcile and returns one `notification_fired_estimated`
    /// per firing, with its `occurrence` (Unix seconds). `pendingIDs` are the requests the OS
    /// still lists as pending.
    public mutating func reconcile(
        pendingIDs: Set<String>, now: Double, converter clock: inout LocalTimeConverter,
        userID: PseudonymousID
    ) -> [AnalyticsEvent] {
        var out: [AnalyticsEvent] = []
        for id in entries.keys.sorted() {
            var e = entries[id]!
            let end = min(now, e.cancelledAt ?? .infinity)
            switch e.request.trigger {
            case .at(let time):
                guard !e.fired, time <= end, !pendingIDs.contains(id) else { continue }
                e.fired = true
                e.firedCount += 1
                out.append(
                    AnalyticsEvent(
                        name: AnalyticsName.notificationFiredEstimated, time: now, userID: userID.value,
                        properties: [
                            "notification_id": id, "notification_type": e.request.type.rawValue,
                            "occurrence": "\(time)"
                        ]))
            case .daily(let minute):
                guard end.isFinite else { continue }
                var day = max(
                    e.lastFiredDay == Int32.min ? clock.localTime(at: e.scheduledAt).day : e.lastFiredDay + 1,
                    clock.localTime(at: e.scheduledAt).day)
                let last = clock.localTime(at: end).day
                while day <= last {
                    let occurrence = clock.instant(day: day, minute: minute)
                    if occurrence >= e.scheduledAt && occurrence <= end {
                        e.lastFiredDay = day
                        e.firedCount += 1
                        out.append(
                            AnalyticsEvent(
                                name: AnalyticsName.notificationFiredEstimated, time: now, userID: userID.value,
                                properties: [
                                    "notification_id": id, "notification_type": e.request.type.rawValue,
                                    "occurrence": "\(occurrence)"
                                ]))
                    }
                    day += 1
                }
            }
            entries[id] = e
        }
        return out
    }
}
