/// What a user can do with a nudge (or in the app), addressed by task slot.
public enum ReminderAction: Hashable, Sendable, Codable {
    /// Done: no more nudges for it (today, for a repeating task or rule).
    case complete(slot: Int32)
    /// No nudges for this task for a while.
    case snooze(slot: Int32, SnoozeDuration)
    /// No nudges for this task until ``unmute(slot:)``.
    case mute(slot: Int32)
    case unmute(slot: Int32)
    /// "Disable for this activity": the rule (or task) makes no more offers and no fences.
    case disable(slot: Int32)
    case enable(slot: Int32)
    /// The task is gone: whatever waits for it is dropped (the app marks it deleted in the book).
    case delete(slot: Int32)
    /// Swiped away: recorded for analytics, changes nothing.
    case dismiss(slot: Int32)
    /// Show the place on a map: an intent the app handles.
    case openMap(slot: Int32)
}

/// How long a snooze lasts.
public enum SnoozeDuration: String, Hashable, Sendable, Codable, CaseIterable {
    case fifteenMinutes = "15m"
    case oneHour = "1h"
    /// Until the user's next local midnight (a completion offer snoozed so does not return).
    case restOfDay = "today"
}

/// What the app must do after an action: the engine only changes its own ledger.
public enum ReminderEffect: Hashable, Sendable {
    /// Cancel every scheduled notification of this slot (``NotificationScheduling/cancel(ids:)``).
    case cancelScheduled(slot: Int32)
    /// A one-shot task is done: mark it completed in the ``TaskBook`` (its fences go).
    case markCompleted(slot: Int32)
    /// Mark it deleted in the ``TaskBook`` (its fences go).
    case markDeleted(slot: Int32)
    /// A rule was disabled ("Disable for this Activity"): ``TaskBook/setRuleEnabled(_:id:)``
    /// false, so its fence is no longer registered.
    case markDisabled(slot: Int32)
    /// A rule was enabled again: ``TaskBook/setRuleEnabled(_:id:)`` true.
    case markEnabled(slot: Int32)
    /// The task's fences changed: plan the monitored regions again.
    case replanRegions
    /// Open the task's place on a map.
    case openMap(slot: Int32)
}

extension ReminderEngine {
    /// Applies `action` at `now` (Unix seconds) and returns what the app must do.
    ///
    /// Completing, deleting, muting, disabling or snoozing removes the task from any bundle not
    /// yet shown and from the queue (a bundle left empty is not shown, and counts against neither
    /// the cap nor the spacing). A snooze holds every reminder of the task until it ends (the rest of the day:
    /// the next local midnight in the user's zone); a completion offer snoozed for 15 minutes or
    /// an hour then returns, once, without counting again against the cap or the spacing (the
    /// Kwilt PRD: "Snooze schedules another one-shot notification"); one snoozed for the rest of
    /// the day does not return (no "Mark done?" at midnight). Disabling a rule asks the app to take its
    /// fence out of the registered regions.
    /// A NaN or infinite `now` changes nothing and is counted in ``ReminderCounters/invalidTimes``.
    /// The triggers it takes out of a bundle or the queue are not reported: see
    /// ``apply(_:in:now:into:)``.
    /// - Precondition: the slot in `action`, if any, is >= 0 (slots are ``TaskBook``'s).
    public mutating func apply(_ action: ReminderAction, in book: TaskBook, now: Double) -> [ReminderEffect] {
        var dropped: [ReminderDecision] = []
        return apply(action, in: book, now: now, into: &dropped)
    }

    /// ``apply(_:in:now:)``, appending to `out` one suppression at `now` for every trigger the
    /// action takes out of a bundle not yet shown or out of the queue, so no trigger ends without
    /// a decision. The reason is the action's: `already_done` (complete), `snoozed`, `task_muted`,
    /// `task_disabled`, `task_deleted`. A trigger waiting in a bundle window or an offer's delay
    /// had passed the checks and gets origin ``ReminderDecision/Origin/withdrawn``; one queued for
    /// Do-Not-Disturb already had its decision and gets ``ReminderDecision/Origin/released``, so
    /// analytics count each eligibility once.
    public mutating func apply(
        _ action: ReminderAction, in book: TaskBook, now: Double, into out: inout [ReminderDecision]
    ) -> [ReminderEffect] {
        guard now.isFinite else { counters.invalidTimes += 1; return [] }
        let t = ledger.observe(now)
        switch action {
        case .complete(let slot):
            let repeating = book.entry(slot) != nil && book.isRepeating(slot)
            var r = ledger.record(slot)
            r.completedDay = clock.localTime(at: t).day
            if !repeating { r.isCompleted = true }
            ledger.records[slot] = r
            removeWaiting(slot, after: t, reason: .alreadyDone, into: &out)
            return repeating ? [.cancelScheduled(slot: slot)] : [.cancelScheduled(slot: slot), .markCompleted(slot: slot), .replanRegions]
        case let .snooze(slot, duration):
            let end: Double
            switch duration {
            case .fifteenMinutes: end = t + 900
            case .oneHour: end = t + 3_600
            case .restOfDay: end = clock.startOfNextDay(after: t)
            }
            ledger.records[slot, default: ReminderLedger.TaskRecord()].snoozedUntil = end
            removeWaiting(slot, after: t, reason: .snoozed, into: &out)
            // A snooze for the rest of the day says "not today": no offer at local midnight.
            if duration != .restOfDay, let entry = book.entry(slot), case .offer(let rule) = entry.item {
                let item = ReminderItem(slot: slot, kind: .offer, fence: -1, distanceMeters: rule.radiusMeters, eventTime: t)
                ledger.queued.append(
                    ReminderLedger.QueuedTrigger(
                        item: item, release: end, delaySeconds: 0,
                        latitude: rule.place.latitude, longitude: rule.place.longitude,
                        origin: .snoozeReturn))
            }
            return [.cancelScheduled(slot: slot)]
        case .mute(let slot):
            ledger.records[slot, default: ReminderLedger.TaskRecord()].isMuted = true
            removeWaiting(slot, after: t, reason: .taskMuted, into: &out)
            return [.cancelScheduled(slot: slot)]
        case .unmute(let slot):
            ledger.records[slot, default: ReminderLedger.TaskRecord()].isMuted = false
            return []
        case .disable(let slot):
            ledger.records[slot, default: ReminderLedger.TaskRecord()].isDisabled = true
            removeWaiting(slot, after: t, reason: .taskDisabled, into: &out)
            return [.cancelScheduled(slot: slot), .markDisabled(slot: slot), .replanRegions]
        case .enable(let slot):
            ledger.records[slot, default: ReminderLedger.TaskRecord()].isDisabled = false
            return [.markEnabled(slot: slot), .replanRegions]
        case .delete(let slot):
            removeWaiting(slot, after: t, reason: .taskDeleted, into: &out)
            return [.cancelScheduled(slot: slot), .markDeleted(slot: slot), .replanRegions]
        case .dismiss:
            return []
        case .openMap(let slot):
            return [.openMap(slot: slot)]
        }
    }

    /// Takes `slot` out of the bundles not yet shown at `time` and out of the queue, appending a
    /// suppression for `reason` at `time` for each trigger taken out. A bundle whose deadline has
    /// passed was shown then, even if ``advance(to:in:context:into:)`` has not reported it yet.
    /// A bundle left empty is never shown, so it leaves the cap, the spacing and the dense-area
    /// cooldown as they were (the PRD's ledger counts offers surfaced).
    mutating func removeWaiting(
        _ slot: Int32, after time: Double, reason: SuppressionReason, into out: inout [ReminderDecision]
    ) {
        for k in ledger.pending.indices where ledger.pending[k].deadline > time {
            let waiting = ledger.pending[k].origin
            let origin: ReminderDecision.Origin = waiting == .trigger ? .withdrawn : waiting
            for item in ledger.pending[k].items where item.slot == slot {
                emitSuppression(reason, item, at: time, until: nil, origin: origin, into: &out)
            }
            ledger.pending[k].items.removeAll { $0.slot == slot }
            if ledger.pending[k].items.isEmpty { refund(ledger.pending[k]) }
        }
        ledger.pending.removeAll { $0.items.isEmpty && $0.deadline > time }
        for q in ledger.queued where q.item.slot == slot {
            // A snooze's own return is not a trigger: it has no decision yet and gets none.
            guard q.origin != .snoozeReturn else { continue }
            emitSuppression(reason, q.item, at: time, until: nil, origin: .released, into: &out)
        }
        ledger.queued.removeAll { $0.item.slot == slot }
    }

    /// Undoes what counting `bundle` did to the day's count and the last delivery, unless a later
    /// delivery has moved the last delivery on since.
    private mutating func refund(_ bundle: ReminderLedger.PendingBundle) {
        guard bundle.origin != .snoozeReturn else { return }  // a return was never counted
        ledger.uncount(onDay: bundle.localDay, offer: bundle.isOffer)
        if bundle.isOffer {
            if ledger.lastOfferTime == bundle.deadline { ledger.lastOfferTime = bundle.previousTime }
        } else if ledger.lastNudgeTime == bundle.deadline {
            ledger.lastNudgeTime = bundle.previousTime
            ledger.lastNudgeLatitude = bundle.previousLatitude
            ledger.lastNudgeLongitude = bundle.previousLongitude
        }
    }
}
