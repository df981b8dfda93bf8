import Geodesy
import Geofencing

/// Decides, for one user, what becomes of each arrive/leave/dwell event: a reminder now, later,
/// in a bundle, queued behind Do-Not-Disturb, or suppressed for a typed reason. One engine with
/// one policy per product (see ``ReminderPreferences``): completion offers (a rule's fence) follow
/// ``CompletionOfferPolicy``, proximity nudges (a task's tier fences) ``ProximityNudgePolicy``,
/// lapse check-ins ``LapseCheckInPolicy``. Pure and clock-injected: every call takes `now`
/// (Unix seconds) and nothing reads a clock.
///
/// How an event is decided (``handle(_:in:context:now:into:)``):
/// 1. `now` becomes `max(now, the largest now seen)`; due bundles, offers and queue releases
///    are delivered first (``advance(to:in:context:into:)``).
/// 2. The fence's binding in the ``TaskBook`` names the entry and the ``ReminderKind``; other
///    transitions of the fence are counted as ignored, and leaving a place's widest fence ends
///    the task's trip.
/// 3. Event filters: stale (nudges only: an offer received late is still offered), duplicate,
///    already nudged in this trip or waiting (see ``SuppressionReason``).
/// 4. The delivery instant. An offer: the transition time plus the rule's delay (or `now`, if
///    that has passed), in-app when the app is in the foreground at that instant, else one
///    notification; never bundled. A nudge: in the foreground with no delay, now, in-app; otherwise the end of the
///    open bundle window that covers now + delay, or now + delay + the bundle window.
/// 5. The eligibility chain at that instant, in ``SuppressionReason`` order, with the product's
///    rails. A trigger that joins an open bundle skips cap, spacing, dense area and quiet hours:
///    the bundle passed them at that same instant and counts once. A snoozed offer's return
///    skips the cooldown, the cap and the spacing (it counted when first shown).
/// 6. Do-Not-Disturb at that instant: queued until the period ends, then decided again from
///    step 4 (so a task completed meanwhile is dropped as `.alreadyDone`).
///
/// A reminder is counted against its cap, spacing and cooldown when it is accepted (at its
/// delivery instant); a bundle later emptied by completions still counts (never more than
/// allowed). The user's local date and minute come from a cached ``LocalTimeConverter``, so a
/// decision makes no Foundation call and allocates nothing unless it delivers.
///
/// - Complexity: O(1) per event plus the open bundles and queued triggers (a handful).
public struct ReminderEngine: Sendable {
    /// The user's settings (see ``updatePreferences(_:)``).
    public private(set) var preferences: ReminderPreferences
    /// The persisted state.
    public internal(set) var ledger: ReminderLedger
    /// Local time in the preferences' zone.
    @usableFromInline var clock: LocalTimeConverter
    /// What happened to the input.
    public internal(set) var counters = ReminderCounters()

    /// An engine with validated `preferences`, continuing from `ledger`.
    /// - Throws: ``ReminderError/invalidPreference(field:message:)``.
    public init(preferences: ReminderPreferences = ReminderPreferences(), ledger: ReminderLedger = ReminderLedger()) throws(ReminderError) {
        try preferences.validate()
        self.preferences = preferences
        self.ledger = ledger
        self.clock = LocalTimeConverter(timeZone: preferences.timeZone)
    }

    /// Replaces the preferences (a new zone applies from the next call: a flight's arrival).
    /// - Throws: ``ReminderError/invalidPreference(field:message:)``; the old ones stay.
    public mutating func updatePreferences(_ new: ReminderPreferences) throws(ReminderError) {
        try new.validate()
        if new.timeZone != preferences.timeZone { clock.timeZone = new.timeZone }
        preferences = new
    }

    /// The user's local time at `instant` (Unix seconds, finite).
    public mutating func localTime(at instant: Double) -> LocalTime { clock.localTime(at: instant) }

    /// When ``advance(to:in:context:into:)`` next has something to deliver: the earliest bundle
    /// deadline or Do-Not-Disturb release (Unix seconds), nil if nothing waits.
    public var nextWakeTime: Double? {
        let a = ledger.pending.map(\.deadline).min(), b = ledger.queued.map(\.release).min()
        switch (a, b) {
        case let (x?, y?): return min(x, y)
        case let (x?, nil): return x
        case let (nil, y?): return y
        default: return nil
        }
    }

    /// Decides `event` (its `time` and `now` in Unix seconds) and appends the decisions it
    /// settles to `out`: its own suppression or queueing (a trigger accepted into a bundle
    /// appears when the bundle is delivered), and any bundle or queue release due by `now`.
    public mutating func handle(
        _ event: TransitionEvent, in book: TaskBook, context: AppContext, now: Double,
        into out: inout [ReminderDecision]
    ) {
        counters.events += 1
        guard now.isFinite, event.time.isFinite else { counters.invalidTimes += 1; return }
        let t = ledger.observe(now)
        if !ledger.pending.isEmpty || !ledger.queued.isEmpty { advance(to: t, in: book, context: context, into: &out) }
        guard let b = book.binding(ofFence: event.fence) else {
            let item = ReminderItem(slot: -1, kind: .approach, fence: event.fence, distanceMeters: 0, eventTime: event.time)
            emitSuppression(.taskMissing, item, at: t, until: nil, into: &out)
            return
        }
        guard event.kind == b.transition else {
            if b.isOutermost, event.kind == .exit { ledger.records[b.slot]?.tripLevel = ReminderLedger.never }
            counters.ignored += 1
            return
        }
        let item = ReminderItem(slot: b.slot, kind: b.kind, fence: event.fence, distanceMeters: b.distanceMeters, eventTime: event.time)
        let isOffer = b.kind == .offer
        // An offer is due its delay after the transition (at once if that has passed: a late
        // event); a nudge its delay after it is received.
        let due = isOffer ? max(t, event.time + b.delaySeconds) : t + b.delaySeconds
        if !isOffer, now - event.time > preferences.proximity.maxEventAgeSeconds {  // both from the caller's clock
            emitSuppression(.staleEvent, item, at: due, until: nil, into: &out)
            return
        }
        var record = ledger.records[b.slot] ?? ReminderLedger.TaskRecord()
        // The same event again; or an older one, unless the caller's clock is behind the ledger's
        // (set back: its events then carry earlier times and are new).
        let sameEvent =
            event.time == record.lastEventTime && event.fence == record.lastEventFence
            && event.kind.rawValue == record.lastEventTransition
        if sameEvent || (now >= t && event.time < record.lastEventTime) {
            emitSuppression(.duplicateEvent, item, at: due, until: nil, into: &out)
            return
        }
        record.lastEventFence = event.fence
        record.lastEventTransition = event.kind.rawValue
        record.lastEventTime = event.time
        ledger.records[b.slot] = record
        if mergeIntoWaiting(item) || (!isOffer && b.kind.level(distanceMeters: b.distanceMeters) <= record.tripLevel) {
            emitSuppression(.alreadyNudged, item, at: due, until: nil, into: &out)
            return
        }
        decide(
            item, due: due, delay: b.delaySeconds, latitude: b.latitude, longitude: b.longitude, origin: .trigger,
            in: book, context: context, into: &out)
    }

    /// Delivers every bundle whose window closed by `now` and decides again every trigger whose
    /// Do-Not-Disturb period ended by `now`, appending the decisions (each at its own instant).
    /// `context` is the app's state at those instants: a bundle or delayed offer is shown in-app
    /// when the app is in the foreground then, and by notification when it is in the background
    /// with notification permission (without it, where it was decided to go: the in-app inbox).
    public mutating func advance(to now: Double, in book: TaskBook, context: AppContext, into out: inout [ReminderDecision]) {
        guard now.isFinite else { counters.invalidTimes += 1; return }
        let t = ledger.observe(now)
        while let k = ledger.queued.indices.min(by: { ledger.queued[$0].release < ledger.queued[$1].release }),
            ledger.queued[k].release <= t
        {
            let q = ledger.queued.remove(at: k)
            decide(
                q.item, due: q.release, delay: q.delaySeconds, latitude: q.latitude, longitude: q.longitude,
                origin: q.origin == .trigger ? .released : q.origin, in: book, context: context, into: &out)
        }
        while let first = ledger.pending.first, first.deadline <= t {
            ledger.pending.removeFirst()
            guard !first.items.isEmpty else { continue }
            let kind = first.items.count == 1 ? first.items[0].kind : ReminderKind.bundle
            // Shown where the user is when it is shown: in-app if the app is open then, else a
            // notification (unless notifications are off: then where it was decided to go).
            var channel = first.channel
            if context.isForeground {
                channel = .inApp
            } else if context.hasNotificationPermission {
                channel = .notification
            }
            out.append(
                ReminderDecision(
                    time: first.deadline, kind: kind, outcome: .deliver(channel), localDay: first.localDay,
                    item: first.items[0], items: first.items, until: nil, origin: first.origin))
            counters.delivered += 1
        }
    }

    /// Steps 4-6 for one trigger.
    mutating func decide(
        _ item: ReminderItem, due: Double, delay: Double, latitude: Double, longitude: Double,
        origin: ReminderDecision.Origin, in book: TaskBook, context: AppContext, into out: inout [ReminderDecision]
    ) {
        let isOffer = item.kind == .offer
        var channel = DeliveryChannel.notification
        var deliverAt = due
        var join = -1
        let immediate: Bool
        if isOffer {
            if context.isForeground { channel = .inApp }
            immediate = due <= ledger.highWater
        } else if context.isForeground && delay == 0 {
            channel = .inApp
            immediate = true
        } else {
            immediate = false
            for k in ledger.pending.indices
            where !ledger.pending[k].isOffer && ledger.pending[k].opensAt <= due && due <= ledger.pending[k].deadline {
                join = k
                deliverAt = ledger.pending[k].deadline
                break
            }
            if join < 0 { deliverAt = due + preferences.proximity.bundleWindowSeconds }
        }
        let local = clock.localTime(at: deliverAt)
        var until: Double? = nil
        if let reason = check(
            item, at: deliverAt, local: local, joining: join >= 0, returning: origin == .snoozeReturn,
            latitude: latitude, longitude: longitude, in: book, context: context, channel: &channel, until: &until)
        {
            out.append(
                ReminderDecision(
                    time: deliverAt, kind: item.kind, outcome: .suppress(reason), localDay: local.day,
                    item: item, items: [], until: until, origin: origin))
            counters.suppressed += 1
            return
        }
        if join < 0, let dnd = preferences.doNotDisturb.first(where: { $0.start <= deliverAt && deliverAt < $0.end }) {
            ledger.queued.append(
                ReminderLedger.QueuedTrigger(
                    item: item, release: dnd.end, delaySeconds: 0,
                    latitude: latitude, longitude: longitude, origin: origin))
            out.append(
                ReminderDecision(
                    time: deliverAt, kind: item.kind, outcome: .queue(until: dnd.end), localDay: local.day,
                    item: item, items: [], until: dnd.end, origin: origin))
            counters.queued += 1
            return
        }
        ledger.records[item.slot, default: ReminderLedger.TaskRecord()].lastNudgeTime = deliverAt
        if !isOffer {
            let level = item.kind.level(distanceMeters: item.distanceMeters)
            if level > ledger.record(item.slot).tripLevel { ledger.records[item.slot]?.tripLevel = level }
        }
        if join >= 0 {
            ledger.pending[join].items.append(item)
            return
        }
        let previous =
            isOffer
            ? (ledger.lastOfferTime, 0.0, 0.0) : (ledger.lastNudgeTime, ledger.lastNudgeLatitude, ledger.lastNudgeLongitude)
        if origin != .snoozeReturn {
            ledger.count(onDay: local.day, offer: isOffer)
            if isOffer {
                ledger.lastOfferTime = deliverAt
            } else {
                ledger.lastNudgeTime = deliverAt
                ledger.lastNudgeLatitude = latitude
                ledger.lastNudgeLongitude = longitude
            }
        }
        if immediate {
            out.append(
                ReminderDecision(
                    time: deliverAt, kind: item.kind, outcome: .deliver(channel), localDay: local.day,
                    item: item, items: [item], until: nil, origin: origin))
            counters.delivered += 1
        } else {
            let bundle = ReminderLedger.PendingBundle(
                opensAt: isOffer ? deliverAt : due, deadline: deliverAt, localDay: local.day,
                channel: channel, items: [item], isOffer: isOffer, origin: origin,
                previousTime: previous.0, previousLatitude: previous.1, previousLongitude: previous.2)
            let at = ledger.pending.firstIndex { $0.deadline > deliverAt } ?? ledger.pending.endIndex
            ledger.pending.insert(bundle, at: at)
        }
    }

    /// The eligibility chain; nil when every check passes. `channel` becomes `.inApp` when
    /// notifications are off but not required; `until` is set for time-bound reasons.
    func check(
        _ item: ReminderItem, at time: Double, local: LocalTime, joining: Bool, returning: Bool,
        latitude: Double, longitude: Double, in book: TaskBook, context: AppContext,
        channel: inout DeliveryChannel, until: inout Double?
    ) -> SuppressionReason? {
        guard preferences.isEnabled else { return .globallyDisabled }
        guard context.hasLocationPermission else { return .locationPermissionMissing }
        if !context.hasNotificationPermission && !context.isForeground {
            if preferences.requiresNotifications { return .notificationsOff }
            channel = .inApp
        }
        guard let policy = book.policy(item.slot) else { return .taskMissing }
        if policy.status == .deleted { return .taskDeleted }
        let record = ledger.records[item.slot] ?? ReminderLedger.TaskRecord()
        if record.isMuted { return .taskMuted }
        if !policy.isEnabled || record.isDisabled { return .taskDisabled }
        if policy.onlyIfIncomplete {
            if policy.status == .completed { return .alreadyDone }
            if policy.isRepeating ? record.completedDay == local.day : record.isCompleted { return .alreadyDone }
        }
        let snooze = max(record.snoozedUntil, preferences.snoozedUntil ?? ReminderLedger.never)
        if time < snooze { until = snooze; return .snoozed }
        if policy.isOffer {
            let rails = preferences.offers
            if !returning {
                let cooldown = policy.cooldownSeconds.isNaN ? rails.defaultCooldownSeconds : policy.cooldownSeconds
                if time - record.lastNudgeTime < cooldown { until = record.lastNudgeTime + cooldown; return .taskCooldown }
                if ledger.offers(onDay: local.day) >= rails.dailyCap { return .dailyCap }
                if time - ledger.lastOfferTime < rails.minimumSpacingSeconds {
                    until = ledger.lastOfferTime + rails.minimumSpacingSeconds
                    return .globalSpacing
                }
            }
            if let quiet = rails.quietHours, quiet.contains(minute: local.minute) { return .quietHours }
            return nil
        }
        let rails = preferences.proximity
        let cooldown = policy.cooldownSeconds.isNaN ? rails.defaultCooldownSeconds : policy.cooldownSeconds
        if time - record.lastNudgeTime < cooldown { until = record.lastNudgeTime + cooldown; return .taskCooldown }
        if joining { return nil }
        if let cap = rails.dailyCap, ledger.nudges(onDay: local.day) >= cap { return .dailyCap }
        if time - ledger.lastNudgeTime < rails.minimumSpacingSeconds {
            until = ledger.lastNudgeTime + rails.minimumSpacingSeconds
            return .globalSpacing
        }
        if time - ledger.lastNudgeTime < rails.denseArea.cooldownSeconds,
            latitude != ledger.lastNudgeLatitude || longitude != ledger.lastNudgeLongitude,
            haversineDistance(
                LatLng(uncheckedLatitude: latitude, longitude: longitude),
                LatLng(uncheckedLatitude: ledger.lastNudgeLatitude, longitude: ledger.lastNudgeLongitude))
                <= rails.denseArea.radiusMeters
        {
            until = ledger.lastNudgeTime + rails.denseArea.cooldownSeconds
            return .denseAreaCooldown
        }
        if let quiet = rails.quietHours, quiet.contains(minute: local.minute) { return .quietHours }
        return nil
    }

    /// If the trigger's task already waits in a bundle or the queue, keeps the more specific
    /// (arrival over approach) or nearer of the two there and returns true.
    mutating func mergeIntoWaiting(_ item: ReminderItem) -> Bool {
        for k in ledger.pending.indices {
            if let j = ledger.pending[k].items.firstIndex(where: { $0.slot == item.slot }) {
                if Self.replaces(item, ledger.pending[k].items[j]) {
                    ledger.pending[k].items[j] = item
                    let level = item.kind.level(distanceMeters: item.distanceMeters)
                    if item.kind != .offer, level > ledger.record(item.slot).tripLevel { ledger.records[item.slot]?.tripLevel = level }
                }
                return true
            }
        }
        for k in ledger.queued.indices where ledger.queued[k].item.slot == item.slot {
            if Self.replaces(item, ledger.queued[k].item) { ledger.queued[k].item = item }
            return true
        }
        return false
    }

    static func replaces(_ new: ReminderItem, _ old: ReminderItem) -> Bool {
        new.kind.specificity > old.kind.specificity
            || (new.kind == old.kind && new.distanceMeters < old.distanceMeters)
    }

    mutating func emitSuppression(
        _ reason: SuppressionReason, _ item: ReminderItem, at time: Double, until: Double?,
        origin: ReminderDecision.Origin = .trigger, into out: inout [ReminderDecision]
    ) {
        out.append(
            ReminderDecision(
                time: time, kind: item.kind, outcome: .suppress(reason), localDay: clock.localTime(at: time).day,
                item: item, items: [], until: until, origin: origin))
        counters.suppressed += 1
    }
}
