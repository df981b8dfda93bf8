/// Hands the engine's delivered decisions to the OS and keeps the notification ledger and the
/// analytics in step: the thin glue between ``ReminderEngine`` and a ``NotificationScheduling``.
///
/// A delivery by notification becomes one request fired at the decision's time, with
/// `notification_scheduled`: id `nudge-{task ids}-{time}`, type `locationCompletionOffer` for an
/// offer and `nudge` for a nudge or bundle; a check-in `check-in-{time}`, type `reactivation`,
/// with the content given (or ``LapseCheckIn/fallback(for:)``'s plain words). An in-app delivery
/// only records its analytics. A check-in withdrawn because the user came back (reason
/// `user_returned`) cancels the check-in requests not yet fired. ``perform(_:book:ledger:analytics:now:)``
/// cancels every request of a slot named by a `.cancelScheduled` effect that has not fired.
public struct NotificationDispatcher<Scheduler: NotificationScheduling>: Sendable {
    /// The OS notification center (or a fake).
    public let scheduler: Scheduler
    /// The pseudonym analytics carry.
    public let userID: PseudonymousID

    /// A dispatcher for one user.
    public init(scheduler: Scheduler, userID: PseudonymousID) {
        self.scheduler = scheduler
        self.userID = userID
    }

    /// Schedules the delivered decisions of `decisions` and records every decision's events.
    /// - Throws: what the scheduler throws; the requests before it stay scheduled and recorded.
    public func dispatch(
        _ decisions: [ReminderDecision], book: TaskBook, unit: DistanceUnit, ledger: inout NotificationLedger,
        analytics: inout AnalyticsLog, now: Double, checkInContent: NotificationContent? = nil
    ) async throws {
        for d in decisions {
            analytics.record(AnalyticsLog.events(for: d, book: book, userID: userID))
            if d.kind == .checkIn, d.reason == .userReturned {
                await cancelCheckIns(ledger: &ledger, analytics: &analytics, now: now)
                continue
            }
            guard case .deliver(.notification) = d.outcome else { continue }
            let request: NotificationRequest
            if d.kind == .checkIn {
                let content =
                    checkInContent ?? LapseCheckIn.fallback(for: CheckInRequest(absence: .lightNudge, daysAway: 0, localeIdentifier: "en_US"))
                request = NotificationRequest(id: "check-in-\(d.time)", type: .reactivation, content: content, trigger: .at(d.time))
            } else {
                guard let content = ReminderText.content(for: d, in: book, unit: unit) else { continue }
                request = NotificationRequest(
                    id: "nudge-\(content.userInfo["task_ids"] ?? "")-\(d.time)",
                    type: d.kind == .offer ? .locationCompletionOffer : .nudge,
                    content: content, trigger: .at(d.time))
            }
            try await scheduler.schedule(request)
            analytics.record(ledger.scheduled(request, now: now, userID: userID))
        }
    }

    /// Cancels every check-in request not yet fired or cancelled (the user came back).
    private func cancelCheckIns(ledger: inout NotificationLedger, analytics: inout AnalyticsLog, now: Double) async {
        let ids = ledger.entries.values.filter { e in
            e.request.type == .reactivation && e.request.id.hasPrefix("check-in-") && e.cancelledAt == nil && !e.fired
        }.map(\.request.id).sorted()
        guard !ids.isEmpty else { return }
        await scheduler.cancel(ids: ids)
        for x in ids { if let e = ledger.cancelled(id: x, now: now, userID: userID) { analytics.record(e) } }
    }

    /// Carries out the effects the app must do after an action (cancelling; the book and region
    /// plan are the app's).
    public func perform(
        _ effects: [ReminderEffect], book: TaskBook, ledger: inout NotificationLedger,
        analytics: inout AnalyticsLog, now: Double
    ) async {
        for effect in effects {
            guard case .cancelScheduled(let slot) = effect, let id = book.entry(slot)?.item.id else { continue }
            let ids = ledger.entries.values.filter { e in
                e.cancelledAt == nil && !e.fired
                    && (e.request.content.userInfo["task_ids"] ?? "").split(separator: ",").contains { $0 == id }
            }.map(\.request.id).sorted()
            guard !ids.isEmpty else { continue }
            await scheduler.cancel(ids: ids)
            for x in ids { if let e = ledger.cancelled(id: x, now: now, userID: userID) { analytics.record(e) } }
        }
    }
}
