/// The outcome of one trigger, or one delivered notification, with what decided it.
///
/// `time` is when the user sees it for a delivery (decision time + delay, the end of its
/// bundle window, or a Do-Not-Disturb release), and the instant it would have been due for a
/// suppression or a queueing. `localDay` is the user's local date at `time`
/// (``LocalTime/day``). A delivery lists its items (one, or several for a `.bundle`); a
/// suppression or queueing names its slot, fence and kind in `item`.
public struct ReminderDecision: Hashable, Sendable, Codable {
    /// What became of it.
    public enum Outcome: Hashable, Sendable, Codable {
        case deliver(DeliveryChannel)
        case suppress(SuppressionReason)
        /// Do-Not-Disturb: held until `until` (Unix seconds), then checked again.
        case queue(until: Double)
    }

    /// How the trigger reached this decision.
    public enum Origin: UInt8, Hashable, Sendable, Codable {
        /// Decided when its event was handled.
        case trigger
        /// Decided again when its Do-Not-Disturb period ended (it was queued before).
        case released
        /// A snoozed completion offer returning at the snooze's end.
        case snoozeReturn
        /// Taken back by the user's action while it waited to be shown (in a bundle window or
        /// an offer's delay), after it had passed the checks.
        case withdrawn
    }

    /// See the type's comment. Unix seconds.
    public var time: Double
    /// The kind shown: the item's, or `.bundle` for several.
    public var kind: ReminderKind
    /// Delivered, suppressed or queued.
    public var outcome: Outcome
    /// The user's local date at `time`, days since 1970-01-01.
    public var localDay: Int32
    /// The trigger this decision is about (the first item of a delivery).
    public var item: ReminderItem
    /// Every item of a delivery, in trigger order; empty for suppressions and queueings.
    public var items: [ReminderItem]
    /// For a time-bound suppression (cooldown, spacing, snooze, quiet hours, dense area): the
    /// instant it ends, Unix seconds; nil otherwise.
    public var until: Double?
    /// How the trigger reached this decision (analytics log `LocationOfferEligible` once: for
    /// the `.trigger` decision).
    public var origin: Origin = .trigger

    /// The suppression reason, if suppressed.
    public var reason: SuppressionReason? {
        if case .suppress(let r) = outcome { return r }
        return nil
    }

    /// Whether it is shown to the user.
    public var isDelivered: Bool {
        if case .deliver = outcome { return true }
        return false
    }

    /// One line that says what was decided and by which rule, e.g.
    /// `suppressed (daily_cap): approach for 'buy-milk' via fence 4 at 2026-01-05`.
    public func explanation(in book: TaskBook) -> String {
        func name(_ slot: Int32) -> String { book.entry(slot).map { "'\($0.item.id)'" } ?? (slot < 0 ? "the user" : "slot \(slot)") }
        let date = LocalTime.dateString(day: localDay)
        switch outcome {
        case .deliver(let channel):
            let what = items.map { "\($0.kind) for \(name($0.slot)) via fence \($0.fence)" }.joined(separator: ", ")
            return "delivered by \(channel.rawValue) at \(date): \(kind == .bundle ? "bundle of " : "")\(what)"
        case .suppress(let reason):
            let end = until.map { " until \($0)" } ?? ""
            return "suppressed (\(reason.rawValue)\(end)): \(item.kind) for \(name(item.slot)) via fence \(item.fence) at \(date)"
        case .queue(let until):
            return "queued (do_not_disturb until \(until)): \(item.kind) for \(name(item.slot)) via fence \(item.fence)"
        }
    }
}
