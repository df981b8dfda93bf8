import JSON
import Foundation
import Geofencing

/// A scripted day for ``ReminderReplay``: one product's tasks, the user's preferences and the
/// events (OS transitions, actions, app state, Do-Not-Disturb, daily checks), read from the JSON
/// format documented in docs/REMINDERS.md.
///
/// Every malformed part is a ``ReminderScenario/Error`` naming its JSON path (`events[3].at`,
/// `tasks[0].place.lat`, `preferences.daily_cap`) and what was expected; unknown keys are errors
/// too, so a misspelt preference is never silently ignored.
public struct ReminderScenario: Sendable {
    /// The product whose policy the tasks follow.
    public enum Product: String, Sendable, CaseIterable {
        case nearMe = "near_me"
        case kwilt
        case airfit
    }

    /// A malformed scenario: the JSON path, what is wrong there, and the line and column where
    /// the value starts (`events[3].at: expected a number, found a string (line 12, column 9)`).
    public typealias Error = JSONPathError

    /// One task of the scenario: a proximity task (Near Me) or a completion-offer rule (Kwilt,
    /// when `offer` is given).
    public struct Task: Sendable {
        public var id: String
        public var title: String
        public var type: String
        /// `place.name`, else the id: the place's identity.
        public var placeName: String
        /// The `{place}` / `{place_or_category}` of the texts: `place.name`; else, for a `poi`
        /// task with a `category`, the category's phrase ("a pharmacy"); else the id.
        public var placeLabel: String
        public var latitude: Double
        public var longitude: Double
        public var category: String?
        /// `radius_m`: a rule's trigger fence, or a home, work or custom task's arrival (and
        /// post-arrival) fence; refused on a `poi` task, which has neither.
        public var radiusMeters: Double?
        /// `arrive` or `leave`, the delay in seconds, repeating (Kwilt).
        public var offer: (trigger: OfferTrigger, delaySeconds: Double, repeating: Bool)?
        public var repeating: Bool
    }

    /// What an event does.
    public enum Action: Sendable, Equatable {
        case transition(TransitionKind, task: String, fence: String?, receivedAt: Double?)
        case action(String, task: String)
        case delete(task: String)
        case app(foreground: Bool)
        case doNotDisturb(on: Bool)
        case dailyCheck(lastActive: Double, absence: AbsencePreference?)
    }

    /// One scripted event.
    public struct Event: Sendable {
        /// Unix seconds.
        public var at: Double
        public var action: Action
        /// `events[k]`.
        public var path: String
    }

    public var product: Product
    public var timeZone: TimeZone
    public var tier: SubscriptionTier
    public var preferences: ReminderPreferences
    /// Location and notification permission (preferences `location_permission`,
    /// `notification_permission`; default both granted).
    public var hasLocationPermission = true
    public var hasNotificationPermission = true
    /// Analytics opted out (preference `analytics_opt_out`).
    public var analyticsOptOut = false
    public var tasks: [Task]
    public var events: [Event]
    /// Unix seconds: the replay runs to this instant.
    public var until: Double

    /// The actions an `action` event may name.
    public static let actions = ["complete", "snooze_15m", "snooze_1h", "snooze_today", "mute", "unmute", "disable", "dismiss", "open"]
    /// The fence names an enter/exit/dwell event may name.
    public static let fences = ["approach_5mi", "approach_3mi", "approach_2mi", "approach_1mi", "arrival"]

    /// Parses a scenario.
    /// - Throws: ``Error`` naming the JSON path of the first problem.
    public static func parse(_ data: Data) throws(Error) -> ReminderScenario {
        let root: JSONReader
        do throws(JSONSyntaxError) {
            root = try JSONReader(parsing: [UInt8](data))
        } catch {
            throw Error(path: "", message: "not valid JSON (\(error.message))", line: error.line, column: error.column)
        }
        let doc = try root.object()
        try doc.only(["product", "time_zone", "tier", "preferences", "tasks", "events", "until"])
        let productName = try doc.string("product")
        guard let product = Product(rawValue: productName) else {
            throw doc.error("product", "expected near_me, kwilt or airfit, found '\(productName)'")
        }
        let zoneName = try doc.optionalString("time_zone") ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw doc.error("time_zone", "unknown IANA time zone '\(zoneName)'")
        }
        let tierName = try doc.optionalString("tier") ?? "free"
        guard let tier = SubscriptionTier(rawValue: tierName) else {
            throw doc.error("tier", "expected free or premium, found '\(tierName)'")
        }
        var s = ReminderScenario(
            product: product, timeZone: zone, tier: tier, preferences: ReminderPreferences(), tasks: [],
            events: [], until: 0)
        s.preferences.timeZone = zone
        if let p = doc.field("preferences") { try s.readPreferences(try p.object()) }
        let taskList = try doc.field("tasks")?.array() ?? []
        for (k, value) in taskList.enumerated() {
            s.tasks.append(try readTask(try value.object(), "tasks[\(k)]", product: product))
            if s.tasks.dropLast().contains(where: { $0.id == s.tasks.last!.id }) {
                throw Error(path: "tasks[\(k)].id", message: "task id '\(s.tasks.last!.id)' is used twice")
            }
        }
        let ids = Set(s.tasks.map(\.id))
        guard let eventList = doc.field("events") else { throw doc.error("events", "missing (an array of events)") }
        for (k, value) in try eventList.array().enumerated() {
            s.events.append(try readEvent(try value.object(), "events[\(k)]", taskIDs: ids))
        }
        s.until = try doc.instant("until")
        for e in s.events {
            if e.at > s.until { throw Error(path: e.path + ".at", message: "is after 'until'") }
            // Received after the end, it would be decided after it (a line past `until`, or a
            // trigger left in a bundle never shown).
            if case .transition(_, _, _, let received?) = e.action, received > s.until {
                throw Error(path: e.path + ".received_at", message: "is after 'until'")
            }
        }
        return s
    }

    mutating func readPreferences(_ p: JSONObjectReader) throws(Error) {
        let path = "preferences"
        try p.only(
            [
                "enabled", "requires_notifications", "location_permission", "notification_permission", "locale",
                "analytics_opt_out", "daily_cap", "spacing_s", "cooldown_s", "quiet_start", "quiet_end",
                "bundle_window_s", "dense_area_radius_m", "dense_area_cooldown_s", "max_event_age_s",
                "lapse_days", "check_in_time", "absence"
            ])
        if let v = try p.optionalBool("enabled") { preferences.isEnabled = v }
        if let v = try p.optionalBool("requires_notifications") { preferences.requiresNotifications = v }
        if let v = try p.optionalBool("location_permission") { hasLocationPermission = v }
        if let v = try p.optionalBool("notification_permission") { hasNotificationPermission = v }
        if let v = try p.optionalBool("analytics_opt_out") { analyticsOptOut = v }
        if let v = try p.optionalString("locale") { preferences.localeIdentifier = v }
        let offers = product == .kwilt
        if let v = try p.optionalNumber("daily_cap") {
            guard v >= 0, v == v.rounded(), v < 1e6 else {
                throw p.error("daily_cap", "expected a whole number >= 0, found \(v)")
            }
            if offers { preferences.offers.dailyCap = Int(v) } else { preferences.proximity.dailyCap = Int(v) }
        }
        if let v = try p.optionalNonNegative("spacing_s") {
            if offers { preferences.offers.minimumSpacingSeconds = v } else { preferences.proximity.minimumSpacingSeconds = v }
        }
        if let v = try p.optionalNonNegative("cooldown_s") {
            if offers { preferences.offers.defaultCooldownSeconds = v } else { preferences.proximity.defaultCooldownSeconds = v }
        }
        let start = try p.optionalString("quiet_start"), end = try p.optionalString("quiet_end")
        if start != nil || end != nil {
            guard let start, let end else {
                throw p.error(start == nil ? "quiet_start" : "quiet_end", "quiet_start and quiet_end go together")
            }
            let quiet: QuietHours
            do throws(ReminderError) {
                quiet = try QuietHours(from: start, to: end)
            } catch {
                guard case let .invalidPreference(field, message) = error else { throw p.error("\(error)") }
                throw p.error(field, message)
            }
            if offers { preferences.offers.quietHours = quiet } else { preferences.proximity.quietHours = quiet }
        }
        if let v = try p.optionalNonNegative("bundle_window_s") { preferences.proximity.bundleWindowSeconds = v }
        if let v = try p.optionalNonNegative("dense_area_radius_m") { preferences.proximity.denseArea.radiusMeters = v }
        if let v = try p.optionalNonNegative("dense_area_cooldown_s") { preferences.proximity.denseArea.cooldownSeconds = v }
        if let v = try p.optionalNonNegative("max_event_age_s") { preferences.proximity.maxEventAgeSeconds = v }
        if let v = try p.optionalNumber("lapse_days") {
            // Finite in seconds too: the policy counts the lapse in seconds.
            guard v > 0, (v * 86_400).isFinite else { throw p.error("lapse_days", "expected a number of days > 0, found \(v)") }
            preferences.checkIns.lapseSeconds = v * 86_400
        }
        if let v = try p.optionalString("check_in_time") {
            do throws(ReminderError) {
                preferences.checkIns.checkInMinute = try QuietHours.minute(parsing: v, field: "check_in_time")
            } catch {
                throw p.error("check_in_time", "expected a 24-hour time HH:mm, found '\(v)'")
            }
        }
        if let v = try p.optionalString("absence") { preferences.checkIns.absence = try Self.absence(v, "\(path).absence") }
    }

    static func absence(_ text: String, _ path: String) throws(Error) -> AbsencePreference {
        guard let a = AbsencePreference(rawValue: text) else {
            throw Error(path: path, message: "expected give_me_space, light_nudge or check_in_on_me, found '\(text)'")
        }
        return a
    }

    static func readTask(_ t: JSONObjectReader, _ path: String, product: Product) throws(Error) -> Task {
        try t.only(["id", "title", "type", "place", "category", "offer", "radius_m", "repeating", "notes"])
        let id = try t.string("id")
        guard !id.isEmpty else { throw t.error("id", "is empty") }
        let title = try t.string("title")
        let type = try t.optionalString("type") ?? "custom"
        guard ["poi", "home", "work", "custom"].contains(type) else {
            throw t.error("type", "expected poi, home, work or custom, found '\(type)'")
        }
        guard let placeValue = t.field("place") else { throw t.error("place", "missing") }
        let place = try placeValue.object()
        try place.only(["name", "lat", "lon"])
        let lat = try place.number("lat"), lon = try place.number("lon")
        guard (-90...90).contains(lat) else { throw place.error("lat", "expected a latitude in [-90, 90], found \(lat)") }
        guard (-180...180).contains(lon) else { throw place.error("lon", "expected a longitude in [-180, 180], found \(lon)") }
        let name = try place.optionalString("name")
        let category = try t.optionalString("category")
        var phrase: String?
        if let category {
            guard let p = categoryPhrases[category] else {
                throw t.error("category", "expected fuel, pharmacy, grocery, bank, atm or post_office, found '\(category)'")
            }
            phrase = p
        }
        var task = Task(
            id: id, title: title, type: type, placeName: name ?? id,
            placeLabel: name ?? (type == "poi" ? phrase : nil) ?? id,
            latitude: lat, longitude: lon, category: category,
            radiusMeters: try t.optionalNonNegative("radius_m"), offer: nil,
            repeating: try t.optionalBool("repeating") ?? false)
        if let offerValue = t.field("offer") {
            let o = try offerValue.object()
            try o.only(["trigger", "delay_s", "repeating"])
            let name = try o.string("trigger")
            guard let trigger = OfferTrigger(rawValue: name) else {
                throw o.error("trigger", "expected arrive or leave, found '\(name)'")
            }
            task.offer = (
                trigger, try o.optionalNonNegative("delay_s") ?? 0,
                try o.optionalBool("repeating") ?? true
            )
        } else if product == .kwilt {
            throw t.error("offer", "missing: a Kwilt task is a completion-offer rule (trigger, delay_s)")
        } else if task.radiusMeters != nil, type == "poi" {
            throw t.error("radius_m", "a poi task has no arrival fence (radius_m sets a rule's fence or a home, work or custom task's arrival)")
        }
        return task
    }

    /// The POI categories (Near Me 3.2: gas stations, pharmacies, groceries, banks, post offices;
    /// and ATMs), by `POICategory` raw value, with the words of the texts.
    static let categoryPhrases = [
        "fuel": "a gas station", "pharmacy": "a pharmacy", "grocery": "a grocery store", "bank": "a bank",
        "atm": "an ATM", "post_office": "a post office"
    ]

    static func readEvent(_ e: JSONObjectReader, _ path: String, taskIDs: Set<String>) throws(Error) -> Event {
        let at = try e.instant("at")
        let type = try e.string("type")
        func task() throws(Error) -> String {
            let id = try e.string("task")
            guard taskIDs.contains(id) else { throw e.error("task", "no task with id '\(id)'") }
            return id
        }
        let action: Action
        switch type {
        case "enter", "exit", "dwell":
            try e.only(["at", "type", "task", "fence", "received_at"])
            let fence = try e.optionalString("fence")
            if let fence, !fences.contains(fence) {
                throw e.error("fence", "expected one of \(fences.joined(separator: ", ")), found '\(fence)'")
            }
            let received: Double? = !e.has("received_at") ? nil : try e.instant("received_at")
            if let received, received < at { throw e.error("received_at", "is before 'at'") }
            let kind: TransitionKind = type == "enter" ? .enter : type == "exit" ? .exit : .dwell
            action = .transition(kind, task: try task(), fence: fence, receivedAt: received)
        case "action":
            try e.only(["at", "type", "task", "action"])
            let name = try e.string("action")
            guard actions.contains(name) else {
                throw e.error("action", "expected one of \(actions.joined(separator: ", ")), found '\(name)'")
            }
            action = .action(name, task: try task())
        case "delete":
            try e.only(["at", "type", "task"])
            action = .delete(task: try task())
        case "app":
            try e.only(["at", "type", "state"])
            let state = try e.string("state")
            guard state == "foreground" || state == "background" else {
                throw e.error("state", "expected foreground or background, found '\(state)'")
            }
            action = .app(foreground: state == "foreground")
        case "dnd":
            try e.only(["at", "type", "on"])
            action = .doNotDisturb(on: try e.bool("on"))
        case "daily_check":
            try e.only(["at", "type", "last_active", "absence"])
            var absence: AbsencePreference?
            if let v = try e.optionalString("absence") { absence = try Self.absence(v, "\(path).absence") }
            let lastActive = try e.instant("last_active")
            if lastActive > at { throw e.error("last_active", "is after 'at'") }
            action = .dailyCheck(lastActive: lastActive, absence: absence)
        default:
            throw e.error("type", "expected enter, exit, dwell, action, delete, app, dnd or daily_check, found '\(type)'")
        }
        return Event(at: at, action: action, path: path)
    }
}

extension JSONObjectReader {
    /// An ISO 8601 instant with a zone designator (``ISO8601Instant``), Unix seconds.
    func instant(_ name: String) throws(ReminderScenario.Error) -> Double {
        let text = try string(name)
        guard let t = ISO8601Instant.parse(text) else {
            throw error(name, "expected an ISO 8601 instant with a zone (2026-01-05T09:00:00-05:00), found '\(text)'")
        }
        return t
    }
}
