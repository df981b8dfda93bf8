/// One user's reminder history: what the eligibility chain remembers between calls. A `Codable`
/// value the app persists and restores (decisions after a restore are identical).
///
/// Representation: per task slot a ``TaskRecord`` (last event, last nudge, completion, snooze,
/// mute, disable, the trip's escalation level); offers and nudges per local date for the most
/// recent ``dayCountsKept`` dates; the last offer's time, the last nudge's time and place; the
/// high-water mark of `now`; the notifications waiting to be shown (bundles, delayed offers) and
/// the triggers queued behind Do-Not-Disturb or a snooze.
///
/// Invariants: times only move forward (``observe(_:)`` returns `max(now, highWater)`, so a
/// clock that goes backwards never reopens a cap or a cooldown); the count of a local date is
/// keyed by the date at delivery time, so the cap holds across DST and zone changes.
public struct ReminderLedger: Hashable, Sendable, Codable {
    /// What the ledger remembers about one task or rule.
    public struct TaskRecord: Hashable, Sendable, Codable {
        /// Last accepted OS event: fence, transition and time (Unix seconds; ``never`` = none).
        public var lastEventFence: Int32 = -1
        /// The `TransitionKind` raw value (`.max` = none).
        public var lastEventTransition: UInt8 = .max
        /// Unix seconds.
        public var lastEventTime = ReminderLedger.never
        /// When its last nudge was (or will be) shown, Unix seconds; ``never`` = never.
        public var lastNudgeTime = ReminderLedger.never
        /// Done for good (one-shot).
        public var isCompleted = false
        /// Local day of the last completion (repeating: done today when equal to today).
        public var completedDay = Int32.min
        /// Snoozed until, Unix seconds.
        public var snoozedUntil = ReminderLedger.never
        /// Muted until unmuted.
        public var isMuted = false
        /// Disabled by the "disable" action.
        public var isDisabled = false
        /// The escalation level of the trip's last accepted nudge (``ReminderKind/level(distanceMeters:)``;
        /// ``never`` = no trip): a tier fence nudges only above it. Leaving the widest fence of
        /// the place ends the trip.
        public var tripLevel = ReminderLedger.never

        /// A record with nothing happened yet.
        public init() {}
    }

    /// Offers and nudges shown on one local date.
    public struct DayCount: Hashable, Sendable, Codable {
        /// Local days since 1970-01-01.
        public var day: Int32
        /// Completion offers shown (a snoozed offer's return not counted again).
        public var offers: Int32
        /// Proximity nudges shown (a bundle counts once).
        public var nudges: Int32
    }

    /// A notification waiting for its bundle window to close at `deadline`.
    public struct PendingBundle: Hashable, Sendable, Codable {
        /// First trigger's due time and the delivery time (due + window), Unix seconds.
        public var opensAt: Double
        /// When it is shown, Unix seconds.
        public var deadline: Double
        /// The local date at `deadline`.
        public var localDay: Int32
        /// Notification, or in-app when notifications are off but not required.
        public var channel: DeliveryChannel
        /// Its tasks, one item per task.
        public var items: [ReminderItem]
        /// A completion offer (never joined by another trigger).
        public var isOffer: Bool
        /// How it came to wait.
        public var origin: ReminderDecision.Origin
        /// The ledger's last offer (or nudge) time and place before this bundle was counted, to
        /// restore if every item is taken out before it is shown (``ReminderEngine/apply(_:in:now:into:)``).
        public var previousTime = ReminderLedger.never
        public var previousLatitude = 0.0
        public var previousLongitude = 0.0
    }

    /// A trigger held by Do-Not-Disturb until `release` (Unix seconds).
    public struct QueuedTrigger: Hashable, Sendable, Codable {
        /// The trigger.
        public var item: ReminderItem
        /// When Do-Not-Disturb ends, Unix seconds.
        public var release: Double
        /// Delay still to apply at release (0: applied already).
        public var delaySeconds: Double
        /// The fence center, degrees (for the dense-area cooldown).
        public var latitude: Double
        /// The fence center, degrees.
        public var longitude: Double
        /// `.released` behind Do-Not-Disturb, `.snoozeReturn` for a snoozed offer.
        public var origin: ReminderDecision.Origin
    }

    /// "Never" as a time: the most negative finite Double, so the ledger encodes as plain JSON
    /// and `now - never` is larger than any cooldown.
    public static let never = -Double.greatestFiniteMagnitude

    /// Local dates whose counts are kept (a week and a day: enough for any zone change).
    public static let dayCountsKept = 8

    /// Records by task slot.
    public internal(set) var records = TaskRecordTable()
    /// Nudges per local date, the most recent ``dayCountsKept`` dates.
    public internal(set) var dayCounts: [DayCount] = []
    /// The last proximity nudge shown: time (Unix seconds, ``never`` = never) and center (degrees).
    public internal(set) var lastNudgeTime = ReminderLedger.never
    /// The last completion offer shown (a return not counted), Unix seconds.
    public internal(set) var lastOfferTime = ReminderLedger.never
    /// Center of the last nudged place, degrees.
    public internal(set) var lastNudgeLatitude = 0.0
    /// Center of the last nudged place, degrees.
    public internal(set) var lastNudgeLongitude = 0.0
    /// The largest `now` seen, Unix seconds.
    public internal(set) var highWater = ReminderLedger.never
    /// Bundles by deadline.
    public internal(set) var pending: [PendingBundle] = []
    /// Triggers held by Do-Not-Disturb.
    public internal(set) var queued: [QueuedTrigger] = []
    /// Last time the user was active in the app, and the last lapse check-in (Unix seconds).
    public internal(set) var lastActive = ReminderLedger.never
    /// The last lapse check-in decided, Unix seconds.
    public internal(set) var lastCheckIn = ReminderLedger.never
    /// When the check-in decided at ``lastCheckIn`` is to be shown (Unix seconds), while it may
    /// still be withdrawn; nil when none waits.
    public internal(set) var scheduledCheckIn: Double?

    /// An empty ledger.
    public init() {}

    /// `max(now, highWater)`, remembered: the time every check uses.
    public mutating func observe(_ now: Double) -> Double {
        if now > highWater { highWater = now }
        return highWater
    }

    /// Offers and nudges counted for local day `day`.
    public func count(onDay day: Int32) -> Int { offers(onDay: day) + nudges(onDay: day) }

    /// Completion offers counted for local day `day`.
    public func offers(onDay day: Int32) -> Int {
        for c in dayCounts where c.day == day { return Int(c.offers) }
        return 0
    }

    /// Proximity nudges counted for local day `day`.
    public func nudges(onDay day: Int32) -> Int {
        for c in dayCounts where c.day == day { return Int(c.nudges) }
        return 0
    }

    /// Counts one offer or nudge on `day`, forgetting the oldest date past ``dayCountsKept``.
    mutating func count(onDay day: Int32, offer: Bool) {
        if let k = dayCounts.firstIndex(where: { $0.day == day }) {
            if offer { dayCounts[k].offers += 1 } else { dayCounts[k].nudges += 1 }
            return
        }
        dayCounts.append(DayCount(day: day, offers: offer ? 1 : 0, nudges: offer ? 0 : 1))
        if dayCounts.count > Self.dayCountsKept, let oldest = dayCounts.indices.min(by: { dayCounts[$0].day < dayCounts[$1].day }) {
            dayCounts.remove(at: oldest)
        }
    }

    /// The record of `slot` (a fresh one if none).
    /// Takes back one ``count(onDay:offer:)`` (a bundle emptied before it was shown).
    mutating func uncount(onDay day: Int32, offer: Bool) {
        guard let k = dayCounts.firstIndex(where: { $0.day == day }) else { return }
        if offer { dayCounts[k].offers = max(0, dayCounts[k].offers - 1) } else { dayCounts[k].nudges = max(0, dayCounts[k].nudges - 1) }
    }

    public func record(_ slot: Int32) -> TaskRecord { records[slot] ?? TaskRecord() }

    /// Records the app being used at `now` (Unix seconds): ends a lapse.
    public mutating func markActive(at now: Double) {
        if now > lastActive { lastActive = now }
    }
}
