/// The OS's notification center, as the reminders layer needs it. An adapter over
/// `UNUserNotificationCenter` implements it on Apple platforms; tests use an in-memory fake.
public protocol NotificationScheduling: Sendable {
    /// Hands a request to the OS (replacing one with the same id).
    func schedule(_ request: NotificationRequest) async throws
    /// Removes pending and delivered requests with these ids.
    func cancel(ids: [String]) async
    /// The ids the OS still holds as pending.
    func pendingIDs() async -> Set<String>
}

/// Time, injected: the only place a clock is read. Tests use a fake that they move by hand.
public protocol TimeSource: Sendable {
    /// Unix seconds.
    func now() -> Double
    /// Suspends for `seconds` of this clock's time (a fake may return at once or never).
    func sleep(seconds: Double) async throws
}

/// Writes a lapse check-in: a persona or a text generator plugs in here. It may fail or be slow:
/// ``LapseCheckIn/content(for:provider:clock:timeoutSeconds:)`` falls back to plain text.
public protocol CheckInContentProviding: Sendable {
    func content(for request: CheckInRequest) async throws -> NotificationContent
}
