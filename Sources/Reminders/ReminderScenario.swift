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

    /// A malformed scenario: the JSON path and what is wrong there.
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// `events[3].at`; empty for the document itself.
        public var path: String
        /// What was expected or found.
        public var message: String
        /// `PATH: MESSAGE`.
        public var description: String { path.isEmpty ? message : "\(path): \(message)" }
    }

    /// One task of the scenario: a proximity task (Near Me) or a completion-offer rule (Kwilt,
    /// when `offer` is given).
    public struct Task: Sendable {
        public var id: String
        public var title: String
        public var type: String
        public var placeName: String
        public var latitude: Double
        public var longitude: Double
        public var category: String?
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
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw Error(path: "", message: "not valid JSON (\(error))")
        }
        let doc = try root.object("")
        try doc.only(["product", "time_zone", "tier", "preferences", "tasks", "events", "until"], "")
        let productName = try doc.string("product", "")
        guard let product = Product(rawValue: productName) else {
            throw Error(path: "product", message: "expected near_me, kwilt or airfit, found '\(productName)'")
        }
        let zoneName = try doc.optionalString("time_zone", "") ?? "UTC"
        guard let zone = TimeZone(identifier: zoneName) else {
            throw Error(path: "time_zone", message: "unknown IANA time zone '\(zoneName)'")
        }
        let tierName = try doc.optionalString("tier", "") ?? "free"
        guard let tier = SubscriptionTier(rawValue: tierName) else {
            throw Error(path: "tier", message: "expected free or premium, found '\(tierName)'")
        }
        var s = ReminderScenario(
            product: product, timeZone: zone, tier: tier, preferences: ReminderPreferences(), tasks: [],
            events: [], until: 0)
        s.preferences.timeZone = zone
        if let p = doc.fields["preferences"] { try s.readPreferences(try p.object("preferences")) }
        let taskList = try doc.fields["tasks"]?.array("tasks") ?? []
        for (k, value) in taskList.enumerated() {
            s.tasks.append(try readTask(try value.object("tasks[\(k)]"), "tasks[\(k)]", product: product))
            if s.tasks.dropLast().contains(where: { $0.id == s.tasks.last!.id }) {
                throw Error(path: "tasks[\(k)].id", message: "task id '\(s.tasks.last!.id)' is used twice")
            }
        }
        let ids = Set(s.tasks.map(\.id))
        guard let eventList = doc.fields["events"] else { throw Error(path: "events", message: "missing (an array of events)") }
        for (k, value) in try eventList.array("events").enumerated() {
            s.events.append(try readEvent(try value.object("events[\(k)]"), "events[\(k)]", taskIDs: ids))
        }
        s.until = try doc.instant("until", "")
        if let late = s.events.first(where: { $0.at > s.until }) {
            throw Error(path: late.path + ".at", message: "is after 'until'")
        }
        return s
    }

    mutating func readPreferences(_ p: JSONObjectValue) throws(Error) {
        let path = "preferences"
        try p.only(
            [
                "enabled", "requires_notifications", "location_permission", "notification_permission", "locale",
                "analytics_opt_out", "daily_cap", "spacing_s", "cooldown_s", "quiet_start", "quiet_end",
                "bundle_window_s", "dense_area_radius_m", "dense_area_cooldown_s", "max_event_age_s",
                "lapse_days", "check_in_time", "absence"
            ], path)
        if let v = try p.optionalBool("enabled", path) { preferences.isEnabled = v }
        if let v = try p.optionalBool("requires_notifications", path) { preferences.requiresNotifications = v }
        if let v = try p.optionalBool("location_permission", path) { hasLocationPermission = v }
        if let v = try p.optionalBool("notification_permission", path) { hasNotificationPermission = v }
        if let v = try p.optionalBool("analytics_opt_out", path) { analyticsOptOut = v }
        if let v = try p.optionalString("locale", path) { preferences.localeIdentifier = v }
        let offers = product == .kwilt
        if let v = try p.optionalNumber("daily_cap", path) {
            guard v >= 0, v == v.rounded(), v < 1e6 else {
                throw Error(path: "\(path).daily_cap", message: "expected a whole number >= 0, found \(v)")
            }
            if offers { preferences.offers.dailyCap = Int(v) } else { preferences.proximity.dailyCap = Int(v) }
        }
        if let v = try p.optionalNonNegative("spacing_s", path) {
            if offers { preferences.offers.minimumSpacingSeconds = v } else { preferences.proximity.minimumSpacingSeconds = v }
        }
        if let v = try p.optionalNonNegative("cooldown_s", path) {
            if offers { preferences.offers.defaultCooldownSeconds = v } else { preferences.proximity.defaultCooldownSeconds = v }
        }
        let start = try p.optionalString("quiet_start", path), end = try p.optionalString("quiet_end", path)
        if start != nil || end != nil {
            guard let start, let end else {
                throw Error(path: "\(path).\(start == nil ? "quiet_start" : "quiet_end")", message: "quiet_start and quiet_end go together")
            }
            let quiet: QuietHours
            do throws(ReminderError) {
                quiet = try QuietHours(from: start, to: end)
            } catch {
                guard case let .invalidPreference(field, message) = error else { throw Error(path: path, message: "\(error)") }
                throw Error(path: "\(path).\(field)", message: message)
            }
            if offers { preferences.offers.quietHours = quiet } else { preferences.proximity.quietHours = quiet }
        }
        if let v = try p.optionalNonNegative("bundle_window_s", path) { preferences.proximity.bundleWindowSeconds = v }
        if let v = try p.optionalNonNegative("dense_area_radius_m", path) { preferences.proximity.denseArea.radiusMeters = v }
        if let v = try p.optionalNonNegative("dense_area_cooldown_s", path) { preferences.proximity.denseArea.cooldownSeconds = v }
        if let v = try p.optionalNonNegative("max_event_age_s", path) { preferences.proximity.maxEventAgeSeconds = v }
        if let v = try p.optionalNumber("lapse_days", path) {
            guard v > 0, v.isFinite else { throw Error(path: "\(path).lapse_days", message: "expected a number of days > 0, found \(v)") }
            preferences.checkIns.lapseSeconds = v * 86_400
        }
        if let v = try p.optionalString("check_in_time", path) {
            do throws(ReminderError) {
                preferences.checkIns.checkInMinute = try QuietHours.minute(parsing: v, field: "check_in_time")
            } catch {
                throw Error(path: "\(path).check_in_time", message: "expected a 24-hour time HH:mm, found '\(v)'")
            }
        }
        if let v = try p.optionalString("absence", path) { preferences.checkIns.absence = try Self.absence(v, "\(path).absence") }
    }

    static func absence(_ text: String, _ path: String) throws(Error) -> AbsencePreference {
        guard let a = AbsencePreference(rawValue: text) else {
            throw Error(path: path, message: "expected give_me_space, light_nudge or check_in_on_me, found '\(text)'")
        }
        return a
    }

    static func readTask(_ t: JSONObjectValue, _ path: String, product: Product) throws(Error) -> Task {
        try t.only(["id", "title", "type", "place", "category", "offer", "radius_m", "repeating", "notes"], path)
        let id = try t.string("id", path)
        guard !id.isEmpty else { throw Error(path: "\(path).id", message: "is empty") }
        let title = try t.string("title", path)
        let type = try t.optionalString("type", path) ?? "custom"
        guard ["poi", "home", "work", "custom"].contains(type) else {
            throw Error(path: "\(path).type", message: "expected poi, home, work or custom, found '\(type)'")
        }
        guard let placeValue = t.fields["place"] else { throw Error(path: "\(path).place", message: "missing") }
        let place = try placeValue.object("\(path).place")
        try place.only(["name", "lat", "lon"], "\(path).place")
        let lat = try place.number("lat", "\(path).place"), lon = try place.number("lon", "\(path).place")
        guard (-90...90).contains(lat) else { throw Error(path: "\(path).place.lat", message: "expected a latitude in [-90, 90], found \(lat)") }
        guard (-180...180).contains(lon) else { throw Error(path: "\(path).place.lon", message: "expected a longitude in [-180, 180], found \(lon)") }
        var task = Task(
            id: id, title: title, type: type, placeName: try place.optionalString("name", "\(path).place") ?? id,
            latitude: lat, longitude: lon, category: try t.optionalString("category", path),
            radiusMeters: try t.optionalNonNegative("radius_m", path), offer: nil,
            repeating: try t.optionalBool("repeating", path) ?? false)
        if let offerValue = t.fields["offer"] {
            let o = try offerValue.object("\(path).offer")
            try o.only(["trigger", "delay_s", "repeating"], "\(path).offer")
            let name = try o.string("trigger", "\(path).offer")
            guard let trigger = OfferTrigger(rawValue: name) else {
                throw Error(path: "\(path).offer.trigger", message: "expected arrive or leave, found '\(name)'")
            }
            task.offer = (
                trigger, try o.optionalNonNegative("delay_s", "\(path).offer") ?? 0,
                try o.optionalBool("repeating", "\(path).offer") ?? true
            )
        } else if product == .kwilt {
            throw Error(path: "\(path).offer", message: "missing: a Kwilt task is a completion-offer rule (trigger, delay_s)")
        }
        return task
    }

    static func readEvent(_ e: JSONObjectValue, _ path: String, taskIDs: Set<String>) throws(Error) -> Event {
        let at = try e.instant("at", path)
        let type = try e.string("type", path)
        func task() throws(Error) -> String {
            let id = try e.string("task", path)
            guard taskIDs.contains(id) else { throw Error(path: "\(path).task", message: "no task with id '\(id)'") }
            return id
        }
        let action: Action
        switch type {
        case "enter", "exit", "dwell":
            try e.only(["at", "type", "task", "fence", "received_at"], path)
            let fence = try e.optionalString("fence", path)
            if let fence, !fences.contains(fence) {
                throw Error(path: "\(path).fence", message: "expected one of \(fences.joined(separator: ", ")), found '\(fence)'")
            }
            let received: Double? = e.fields["received_at"] == nil ? nil : try e.instant("received_at", path)
            if let received, received < at { throw Error(path: "\(path).received_at", message: "is before 'at'") }
            let kind: TransitionKind = type == "enter" ? .enter : type == "exit" ? .exit : .dwell
            action = .transition(kind, task: try task(), fence: fence, receivedAt: received)
        case "action":
            try e.only(["at", "type", "task", "action"], path)
            let name = try e.string("action", path)
            guard actions.contains(name) else {
                throw Error(path: "\(path).action", message: "expected one of \(actions.joined(separator: ", ")), found '\(name)'")
            }
            action = .action(name, task: try task())
        case "delete":
            try e.only(["at", "type", "task"], path)
            action = .delete(task: try task())
        case "app":
            try e.only(["at", "type", "state"], path)
            let state = try e.string("state", path)
            guard state == "foreground" || state == "background" else {
                throw Error(path: "\(path).state", message: "expected foreground or background, found '\(state)'")
            }
            action = .app(foreground: state == "foreground")
        case "dnd":
            try e.only(["at", "type", "on"], path)
            action = .doNotDisturb(on: try e.bool("on", path))
        case "daily_check":
            try e.only(["at", "type", "last_active", "absence"], path)
            var absence: AbsencePreference?
            if let v = try e.optionalString("absence", path) { absence = try Self.absence(v, "\(path).absence") }
            action = .dailyCheck(lastActive: try e.instant("last_active", path), absence: absence)
        default:
            throw Error(path: "\(path).type", message: "expected enter, exit, dwell, action, delete, app, dnd or daily_check, found '\(type)'")
        }
        return Event(at: at, action: action, path: path)
    }
}

/// A JSON document as values, decoded by Foundation's `JSONDecoder` (which tells booleans from
/// numbers), for reading with paths in error messages.
enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let n = try? c.decode(Double.self) {
            self = .number(n)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    func object(_ path: String) throws(ReminderScenario.Error) -> JSONObjectValue {
        guard case .object(let o) = self else { throw .init(path: path, message: "expected an object, found \(kind)") }
        return JSONObjectValue(fields: o)
    }

    func array(_ path: String) throws(ReminderScenario.Error) -> [JSONValue] {
        guard case .array(let a) = self else { throw .init(path: path, message: "expected an array, found \(kind)") }
        return a
    }
}

/// An object's fields, read by key with the object's path for errors.
struct JSONObjectValue: Sendable {
    var fields: [String: JSONValue]

    func key(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Fails on a key not in `allowed`.
    func only(_ allowed: Set<String>, _ path: String) throws(ReminderScenario.Error) {
        if let extra = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw .init(path: key(path, extra), message: "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
        }
    }

    /// The field `name` as `extract` reads it (nil when absent); `expected` names the type for
    /// the error when it is of another type.
    func optional<T>(_ name: String, _ path: String, _ expected: String, _ extract: (JSONValue) -> T?) throws(ReminderScenario.Error) -> T? {
        guard let v = fields[name] else { return nil }
        guard let x = extract(v) else { throw .init(path: key(path, name), message: "expected \(expected), found \(v.kind)") }
        return x
    }

    /// The field `name`, which must be present.
    func required<T>(_ name: String, _ path: String, _ expected: String, _ extract: (JSONValue) -> T?) throws(ReminderScenario.Error) -> T {
        guard let x = try optional(name, path, expected, extract) else { throw .init(path: key(path, name), message: "missing (\(expected))") }
        return x
    }

    static func string(_ v: JSONValue) -> String? { if case .string(let s) = v { return s }; return nil }
    static func number(_ v: JSONValue) -> Double? { if case .number(let n) = v, n.isFinite { return n }; return nil }
    static func bool(_ v: JSONValue) -> Bool? { if case .bool(let b) = v { return b }; return nil }

    func string(_ name: String, _ path: String) throws(ReminderScenario.Error) -> String { try required(name, path, "a string", Self.string) }
    func optionalString(_ name: String, _ path: String) throws(ReminderScenario.Error) -> String? {
        try optional(name, path, "a string", Self.string)
    }
    func number(_ name: String, _ path: String) throws(ReminderScenario.Error) -> Double { try required(name, path, "a number", Self.number) }
    func optionalNumber(_ name: String, _ path: String) throws(ReminderScenario.Error) -> Double? {
        try optional(name, path, "a number", Self.number)
    }
    func bool(_ name: String, _ path: String) throws(ReminderScenario.Error) -> Bool { try required(name, path, "true or false", Self.bool) }
    func optionalBool(_ name: String, _ path: String) throws(ReminderScenario.Error) -> Bool? { try optional(name, path, "true or false", Self.bool) }

    func optionalNonNegative(_ name: String, _ path: String) throws(ReminderScenario.Error) -> Double? {
        guard let n = try optionalNumber(name, path) else { return nil }
        guard n >= 0 else { throw .init(path: key(path, name), message: "expected a number >= 0, found \(n)") }
        return n
    }

    /// An ISO 8601 instant with a zone designator (``ISO8601Instant``), Unix seconds.
    func instant(_ name: String, _ path: String) throws(ReminderScenario.Error) -> Double {
        let text = try string(name, path)
        guard let t = ISO8601Instant.parse(text) else {
            throw .init(path: key(path, name), message: "expected an ISO 8601 instant with a zone (2026-01-05T09:00:00-05:00), found '\(text)'")
        }
        return t
    }
}
