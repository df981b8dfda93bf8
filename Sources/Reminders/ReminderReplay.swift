import Foundation
import Geofencing

/// Replays a ``ReminderScenario`` through the real engine, book, catalog, text and analytics:
/// what `geofence reminders replay` prints (docs/REMINDERS.md).
///
/// The tasks are added to a ``TaskBook`` and their fences registered at the first event; events
/// are handled in the order the app receives them (`received_at`, else `at`), each after
/// delivering what fell due before it; actions are applied with their effects on the book
/// (completed, deleted and disabled entries leave the registered fences, and a later transition
/// of such a fence is a `not_registered` suppression that never reaches the engine, since the OS
/// would not report it); a trigger an action takes out of a bundle or the queue gets its own
/// suppression line (the engine's ``ReminderEngine/apply(_:in:now:into:)``); Do-Not-Disturb
/// periods are the spans between a `dnd` on and the next off. Deliveries appear at the instant
/// they are shown; everything is sorted by that instant (stable).
public enum ReminderReplay {
    /// One decision as printed.
    public struct Line: Sendable, Equatable {
        /// Unix seconds.
        public var at: Double
        /// The task id (several joined by `+` for a bundle), nil for a check-in.
        public var task: String?
        /// `approach`, `arrival`, `post_arrival`, `completion_offer`, `check_in` (a bundle: its
        /// first item's kind, with ``items`` > 1).
        public var kind: String
        /// `deliver`, `suppress` or `queue`.
        public var decision: String
        /// `notification` or `in_app` for a delivery.
        public var channel: String?
        /// The suppression reason, or `do_not_disturb` for a queueing.
        public var reason: String?
        public var title: String?
        public var body: String?
        public var category: String?
        /// The category's action identifiers, for a delivery.
        public var actions: [String]?
        /// The user's local date at `at`, `YYYY-MM-DD`.
        public var localDate: String
        /// Tasks in the notification (1, or more for a bundle).
        public var items: Int
    }

    /// What a replay produced.
    public struct Output: Sendable {
        public var lines: [Line]
        /// `task/fence` of every fence registered at the end (`milk/approach_5mi`, `gym/leave`).
        public var registeredFences: [String]
        /// The analytics kept (after the opt-out), in order.
        public var analytics: [AnalyticsEvent]
        /// The scenario's zone, to print instants with its offset.
        public var timeZone: TimeZone
    }

    /// Replays `scenario`.
    /// - Throws: ``ReminderScenario/Error`` for a task the book refuses (naming `tasks[k]`), an
    ///   event naming a fence its task does not have (naming `events[k].fence`), or invalid
    ///   preferences (naming `preferences`).
    public static func run(_ scenario: ReminderScenario) throws(ReminderScenario.Error) -> Output {
        let user = PseudonymousID(accountID: "replay", salt: "replay")
        var analytics = AnalyticsLog(optOut: scenario.analyticsOptOut)
        var book = TaskBook(tier: scenario.tier)
        let start = scenario.events.map(\.at).min() ?? scenario.until
        var knownPlaces = Set<String>()
        for (k, task) in scenario.tasks.enumerated() {
            let place: Place
            do { place = try Place(id: task.placeName, latitude: task.latitude, longitude: task.longitude) } catch {
                throw .init(path: "tasks[\(k)].place", message: error.description)
            }
            do throws(ReminderError) {
                if let offer = task.offer {
                    try book.add(
                        CompletionOfferRule(
                            id: task.id, activity: task.title, place: place, placeLabel: task.placeLabel,
                            radiusMeters: task.radiusMeters ?? 150, trigger: offer.trigger,
                            delaySeconds: offer.delaySeconds, isRepeating: offer.repeating))
                } else {
                    let kind: TaskKind = ["poi": .poiCategory, "home": .home, "work": .work][task.type] ?? .customPlace
                    var settings: TierSettings?
                    if let r = task.radiusMeters {  // the arrival and post-arrival fences' radius
                        settings = TierSettings.defaults(for: kind)
                        settings?.arrivalRadiusMeters = r
                    }
                    let t = ReminderTask(
                        id: task.id, title: task.title, kind: kind, places: [place], placeLabel: task.placeLabel,
                        settings: settings, isRepeating: task.repeating)
                    try book.add(t)
                    analytics.record(AnalyticsLog.events(forNewTask: t, knownPlaceIDs: &knownPlaces, userID: user, time: start))
                }
            } catch {
                throw .init(path: "tasks[\(k)]", message: error.description)
            }
        }
        let fences: [Geofence]
        do throws(ReminderError) { fences = try book.geofences() } catch { throw .init(path: "tasks", message: error.description) }
        var registered = Set<String>()
        func register(at time: Double) {
            var copy = book
            let now = (try? copy.geofences()) ?? []
            let names = Set(now.map(name))
            for f in now where !registered.contains(name(f)) {
                analytics.record(
                    AnalyticsLog.geofenceRegistered(
                        taskID: f.taskID, tier: tierName(f.kind), radiusMeters: f.radiusMeters,
                        userID: user, time: time))
            }
            registered = names
        }
        register(at: start)

        var preferences = scenario.preferences
        preferences.doNotDisturb = doNotDisturbWindows(scenario)
        var engine: ReminderEngine
        do throws(ReminderError) { engine = try ReminderEngine(preferences: preferences) } catch {
            throw .init(path: "preferences", message: error.description)
        }
        var context = AppContext(
            hasLocationPermission: scenario.hasLocationPermission,
            hasNotificationPermission: scenario.hasNotificationPermission, isForeground: false)
        var lines: [Line] = []
        var converter = LocalTimeConverter(timeZone: scenario.timeZone)
        var decided: [ReminderDecision] = []
        func flush() {
            for d in decided {
                analytics.record(AnalyticsLog.events(for: d, book: book, userID: user))
                lines.append(line(d, book: book, unit: preferences.distanceUnit, converter: &converter))
            }
            decided = []
        }
        // The user was active at `t`: a check-in decided before and not shown by then is
        // withdrawn, and its line becomes the withdrawal.
        func markActive(_ t: Double) {
            guard let withdrawn = engine.markActive(at: t) else { return }
            if let k = lines.lastIndex(where: { $0.kind == "check_in" && $0.decision == "deliver" && $0.at > t }) {
                lines.remove(at: k)
            }
            decided.append(withdrawn)
        }
        let order = scenario.events.indices.sorted { a, b in
            let ta = received(scenario.events[a]), tb = received(scenario.events[b])
            return ta != tb ? ta < tb : a < b
        }
        for k in order {
            let event = scenario.events[k]
            let now = received(event)
            engine.advance(to: now, in: book, context: context, into: &decided)
            flush()
            switch event.action {
            case let .transition(kind, task, fenceName, _):
                let fence = try resolve(task: task, fenceName: fenceName, kind: kind, fences: fences, path: event.path)
                if let f = fences.first(where: { $0.id == fence }), !registered.contains(name(f)) {
                    // The phone no longer monitors it: the OS reports nothing, the engine sees nothing.
                    lines.append(unregistered(f, at: now, converter: &converter))
                    continue
                }
                engine.handle(
                    TransitionEvent(device: 0, fence: fence, kind: kind, time: event.at), in: book, context: context,
                    now: now, into: &decided)
            case let .action(name, task):
                guard let slot = book.slot(of: task) else { continue }
                let action: ReminderAction
                switch name {
                case "complete": action = .complete(slot: slot)
                case "snooze_15m": action = .snooze(slot: slot, .fifteenMinutes)
                case "snooze_1h": action = .snooze(slot: slot, .oneHour)
                case "snooze_today": action = .snooze(slot: slot, .restOfDay)
                case "mute": action = .mute(slot: slot)
                case "unmute": action = .unmute(slot: slot)
                case "disable": action = .disable(slot: slot)
                case "dismiss": action = .dismiss(slot: slot)
                default: action = .openMap(slot: slot)
                }
                analytics.record(AnalyticsLog.events(for: action, book: book, userID: user, time: now))
                if apply(engine.apply(action, in: book, now: now, into: &decided), to: &book) { register(at: now) }
            case let .delete(task):
                guard let slot = book.slot(of: task) else { continue }
                if apply(engine.apply(.delete(slot: slot), in: book, now: now, into: &decided), to: &book) { register(at: now) }
            case let .app(foreground):
                context.isForeground = foreground
                if foreground { markActive(now) }
            case .doNotDisturb:
                break
            case let .dailyCheck(lastActive, absence):
                markActive(lastActive)
                if let absence {
                    var p = engine.preferences
                    p.checkIns.absence = absence
                    try? engine.updatePreferences(p)
                }
                if let d = engine.checkIn(context: context, now: now), d.time <= scenario.until {
                    analytics.record(AnalyticsLog.events(for: d, book: book, userID: user))
                    var l = line(d, book: book, unit: preferences.distanceUnit, converter: &converter)
                    if d.isDelivered {
                        let request = CheckInRequest(
                            absence: engine.preferences.checkIns.absence,
                            daysAway: Int((now - lastActive) / 86_400), localeIdentifier: preferences.localeIdentifier)
                        let content = LapseCheckIn.fallback(for: request)
                        (l.title, l.body, l.category) = (content.title, content.body, content.categoryIdentifier)
                        l.actions = NotificationCatalog.checkIn.actionIdentifiers
                    }
                    lines.append(l)
                }
            }
            flush()
        }
        engine.advance(to: scenario.until, in: book, context: context, into: &decided)
        flush()
        let sorted = lines.indices.sorted { a, b in lines[a].at != lines[b].at ? lines[a].at < lines[b].at : a < b }.map { lines[$0] }
        var copy = book
        let finalFences = ((try? copy.geofences()) ?? []).map(name)
        return Output(lines: sorted, registeredFences: finalFences, analytics: analytics.events, timeZone: scenario.timeZone)
    }

    static func received(_ e: ReminderScenario.Event) -> Double {
        if case let .transition(_, _, _, receivedAt?) = e.action { return receivedAt }
        return e.at
    }

    /// Carries out the effects on the app's book; true when the region plan changed (to register
    /// again).
    static func apply(_ effects: [ReminderEffect], to book: inout TaskBook) -> Bool {
        var replan = false
        for effect in effects {
            switch effect {
            case .markCompleted(let slot): if let id = book.entry(slot)?.item.id { try? book.setStatus(.completed, of: id) }
            case .markDeleted(let slot): if let id = book.entry(slot)?.item.id { try? book.setStatus(.deleted, of: id) }
            case .markDisabled(let slot): if let id = book.entry(slot)?.item.id { try? book.setRuleEnabled(false, id: id) }
            case .markEnabled(let slot): if let id = book.entry(slot)?.item.id { try? book.setRuleEnabled(true, id: id) }
            case .replanRegions: replan = true
            case .cancelScheduled, .openMap: break
            }
        }
        return replan
    }

    /// `approach_5mi`, `arrival`, `post_arrival`, `arrive`, `leave`.
    static func tierName(_ kind: GeofenceKind) -> String {
        switch kind {
        case .approach(let miles): return "approach_\(miles == miles.rounded() ? "\(Int(miles))" : "\(miles)")mi"
        case .arrival: return "arrival"
        case .postArrivalDwell: return "post_arrival"
        case .arriveTrigger: return "arrive"
        case .leaveTrigger: return "leave"
        }
    }

    static func name(_ f: Geofence) -> String { "\(f.taskID)/\(tierName(f.kind))" }

    /// The fence an event names: a rule's one trigger fence; a task's dwell on `arrival` is its
    /// post-arrival fence; otherwise the tier named (default `arrival`).
    static func resolve(
        task: String, fenceName: String?, kind: TransitionKind, fences: [Geofence],
        path: String
    ) throws(ReminderScenario.Error) -> Int32 {
        let mine = fences.filter { $0.taskID == task }
        if let trigger = mine.first(where: { $0.kind == .arriveTrigger || $0.kind == .leaveTrigger }) { return trigger.id }
        let wanted = kind == .dwell ? "post_arrival" : (fenceName ?? "arrival")
        if kind == .dwell, let n = fenceName, n != "arrival" {
            throw .init(path: "\(path).fence", message: "a dwell is on the arrival fence (the post-arrival trigger), found '\(n)'")
        }
        guard let f = mine.first(where: { tierName($0.kind) == wanted }) else {
            let has = mine.map { tierName($0.kind) }.filter { $0 != "post_arrival" }
            throw .init(
                path: "\(path).fence", message: "task '\(task)' has no fence '\(fenceName ?? "arrival")' (it has \(has.joined(separator: ", ")))")
        }
        return f.id
    }

    /// The spans between a `dnd` on and the next off (an open one lasts past `until`).
    static func doNotDisturbWindows(_ s: ReminderScenario) -> [DoNotDisturbWindow] {
        var out: [DoNotDisturbWindow] = []
        var since: Double?
        for e in s.events.sorted(by: { $0.at < $1.at }) {
            guard case .doNotDisturb(let on) = e.action else { continue }
            if on {
                if since == nil { since = e.at }
            } else if let start = since {
                if let w = try? DoNotDisturbWindow(start: start, end: e.at) { out.append(w) }
                since = nil
            }
        }
        if let start = since, let w = try? DoNotDisturbWindow(start: start, end: max(s.until, start) + 1) { out.append(w) }
        return out
    }

    /// The line for a transition of a fence the app no longer registers (its task deleted or
    /// completed, its rule disabled): `suppress`, reason `not_registered`. No analytics: the
    /// phone would not have received it.
    static func unregistered(_ f: Geofence, at time: Double, converter: inout LocalTimeConverter) -> Line {
        let kind: String
        switch f.kind {
        case .approach: kind = "approach"
        case .arrival: kind = "arrival"
        case .postArrivalDwell: kind = "post_arrival"
        case .arriveTrigger, .leaveTrigger: kind = "completion_offer"
        }
        return Line(
            at: time, task: f.taskID, kind: kind, decision: "suppress", reason: notRegistered,
            localDate: LocalTime.dateString(day: converter.localTime(at: time).day), items: 1)
    }

    /// The reason of `unregistered(_:at:converter:)`'s line.
    public static let notRegistered = "not_registered"

    static func line(_ d: ReminderDecision, book: TaskBook, unit: DistanceUnit, converter: inout LocalTimeConverter) -> Line {
        let ids = (d.isDelivered ? d.items : [d.item]).compactMap { book.entry($0.slot)?.item.id }
        let kind: String
        switch d.kind == .bundle ? d.item.kind : d.kind {
        case .offer: kind = "completion_offer"
        case .checkIn: kind = "check_in"
        case let other: kind = other.description
        }
        var l = Line(
            at: d.time, task: ids.isEmpty ? nil : ids.joined(separator: "+"), kind: kind, decision: "suppress",
            localDate: LocalTime.dateString(day: converter.localTime(at: d.time).day), items: max(1, d.items.count))
        switch d.outcome {
        case .deliver(let channel):
            l.decision = "deliver"
            l.channel = channel.rawValue
            if let content = ReminderText.content(for: d, in: book, unit: unit) {
                (l.title, l.body, l.category) = (content.title, content.body, content.categoryIdentifier)
                l.actions = NotificationCatalog.all.first { $0.identifier == content.categoryIdentifier }?.actionIdentifiers ?? []
            }
        case .suppress(let reason):
            l.reason = reason.rawValue
        case .queue:
            l.decision = "queue"
            l.reason = "do_not_disturb"
        }
        return l
    }

    /// `2026-01-05T09:02:00-05:00`: the instant in the zone's offset (fractional seconds to
    /// the millisecond when there are any); an instant beyond ``LocalTimeConverter/horizon`` as
    /// that bound. An offset that is not whole minutes (a local mean time before standard time)
    /// is rounded to the minute, the wall time following it.
    public static func isoString(_ t: Double, converter: inout LocalTimeConverter) -> String {
        let t = LocalTimeConverter.clamped(t)
        // An offset prints in whole minutes; a local mean time's (-04:56:02) is rounded, and the
        // wall time is the one in the printed offset, so the text names the same instant.
        let offset = Int((converter.utcOffset(at: t) / 60).rounded()) * 60
        let local = t + Double(offset)
        var day = (local / 86_400).rounded(.down)
        // Rounded to the millisecond first, so 23:59:59.9996 prints as the next day's 00:00:00.
        var millisOfDay = Int(((local - day * 86_400) * 1_000).rounded())
        if millisOfDay >= 86_400_000 {
            day += 1
            millisOfDay -= 86_400_000
        }
        let (y, m, d) = LocalTime.civil(day: Int(day))
        let whole = millisOfDay / 1_000, millis = millisOfDay % 1_000
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        var year = String(abs(y))
        while year.count < 4 { year = "0" + year }
        var text = (y < 0 ? "-" : "") + year + "-\(two(m))-\(two(d))T\(two(whole / 3_600)):\(two(whole / 60 % 60)):\(two(whole % 60))"
        if millis > 0 { text += "." + String(String(millis + 1_000).dropFirst()) }
        if offset == 0 { return text + "Z" }
        let a = abs(offset) / 60
        return text + (offset < 0 ? "-" : "+") + "\(two(a / 60)):\(two(a % 60))"
    }
}
