/// The events to send, after the user's choice: with analytics opted out, only essential
/// events are kept and the rest are counted, not sent.
public struct AnalyticsLog: Hashable, Sendable, Codable {
    /// True: only essential events are kept.
    public var optOut: Bool
    /// The events kept, in order.
    public private(set) var events: [AnalyticsEvent] = []
    /// Non-essential events withheld because of the opt-out.
    public private(set) var withheld = 0

    /// An empty log.
    public init(optOut: Bool) { self.optOut = optOut }

    /// Keeps `event`, or counts it as withheld.
    public mutating func record(_ event: AnalyticsEvent) {
        if optOut && !event.isEssential { withheld += 1 } else { events.append(event) }
    }

    /// Records each of `events`.
    public mutating func record(_ events: [AnalyticsEvent]) { for e in events { record(e) } }

    /// The events of a decision: for a completion offer `LocationOfferEligible` then
    /// `LocationOfferShown` (delivered), `LocationOfferEligible` (queued) or
    /// `LocationOfferSuppressed` with its reason; for a delivered nudge or bundle `nudge_shown`
    /// with its kind and task count. Suppressed nudges are counted by the engine, not sent.
    public static func events(for decision: NudgeDecision, userID: PseudonymousID) -> [AnalyticsEvent] {
        let id = userID.value
        func e(_ name: String, _ p: [String: String]) -> AnalyticsEvent { AnalyticsEvent(name: name, time: decision.time, userID: id, properties: p) }
        switch (decision.outcome, decision.kind) {
        case (.deliver(let channel), .offer):
            return [e(AnalyticsName.locationOfferEligible, [:]), e(AnalyticsName.locationOfferShown, ["channel": channel.rawValue])]
        case (.deliver(let channel), _):
            return [e(AnalyticsName.nudgeShown, ["kind": decision.kind.description, "tasks": "\(decision.items.count)", "channel": channel.rawValue])]
        case (.suppress(let reason), .offer):
            return [e(AnalyticsName.locationOfferSuppressed, ["reason": reason.rawValue])]
        case (.queue, .offer):
            return [e(AnalyticsName.locationOfferEligible, ["queued": "do_not_disturb"])]
        default:
            return []
        }
    }
}
