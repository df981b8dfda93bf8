import JSON
import Geodesy
import Responders

/// A request the service refuses, with the HTTP status and a message naming the field
/// (a JSON path such as `fixes[2].lat`) or the header.
public struct RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 400, 401, 404, 405, 409, 413, 500 (a stored row the service cannot read) or 503.
    public var status: Int
    /// The field or header at fault, empty when the whole request is.
    public var field: String
    public var message: String
    /// For a 405: the methods the path takes, as the `Allow` header lists them.
    public var allow: String

    public init(_ status: Int, field: String = "", _ message: String, allow: String = "") {
        self.status = status
        self.field = field
        self.message = message
        self.allow = allow
    }

    /// `field: message`, or the message alone.
    public var description: String { field.isEmpty ? message : "\(field): \(message)" }

    /// `{"error": "...", "field": "..."}`.
    public var json: String {
        "{\"error\": \(jsonString(description)), \"field\": \(jsonString(field))}"
    }
}

/// One `POST /v1/locations` body, checked field by field.
///
/// `{"responder": 17, "fixes": [{"seq": 1, "t": 1764300000.0, "lat": 60.1, "lon": 24.9,
/// "acc": 12.0, "duty": "on_duty", "power": "normal"}], "telemetry": {...}}`. Required: the
/// responder (an integer in 0...2^31-1), `fixes` (an array, possibly empty) and in each fix `seq`
/// (an integer in 1...2^53-1, the integers a JSON number holds exactly), `t` (a finite number,
/// seconds; stored as sent, ordered no later than its arrival: ``Responders/StoredFix/orderTime``), `lat` (-90...90), `lon` (-180...180),
/// `acc` (finite, >= 0 meters) and `duty`; `power` defaults to `normal`. `telemetry` is
/// optional, and so is each of its fields, but a field given must have its type
/// (`permission`, or the memo's `permission_status`: always | when_in_use | denied |
/// not_determined | granted (= always); the two must agree when both are given;
/// `location_services`: boolean; `power_mode`: normal | low_power; `app_state`: foreground |
/// background | relaunched; `queue_depth`: integer >= 0; `oldest_age_s`: number >= 0;
/// `network`, or the memo's `network_type`: wifi | cellular | none). Unknown members are ignored;
/// a member given twice is refused.
public struct LocationBatch: Sendable {
    public var responder: ResponderID
    public var fixes: [ReportedFix]
    /// Nil when the body had no telemetry.
    public var telemetry: TelemetryEnvelope?

    /// Decodes `body`; the first problem found throws a 400 naming its field.
    public init(body: [UInt8]) throws(RequestError) {
        let root = try parseBody(body)
        guard case .object = root else { throw RequestError(400, field: "body", "expected an object, found \(root.kind)") }
        responder = try readResponder(root, "responder")
        guard let list = root["fixes"] else { throw RequestError(400, field: "fixes", "missing") }
        guard case .array(let items) = list else { throw RequestError(400, field: "fixes", "expected an array, found \(list.kind)") }
        var fixes: [ReportedFix] = []
        fixes.reserveCapacity(items.count)
        for (k, item) in items.enumerated() {
            let path = "fixes[\(k)]"
            guard case .object = item else { throw RequestError(400, field: path, "expected an object, found \(item.kind)") }
            let seq = try readInt(item, "seq", path: path, in: 1...Int64.max)
            let t = try readNumber(item, "t", path: path, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
            let lat = try readNumber(item, "lat", path: path, in: -90...90)
            let lon = try readNumber(item, "lon", path: path, in: -180...180)
            let acc = try readNumber(item, "acc", path: path, in: 0...Double.greatestFiniteMagnitude)
            let duty = try readName(item, "duty", path: path, DutyState.allCases.map { ($0.name, $0) })
            let power =
                item["power"] == nil
                ? PowerMode.normal
                : try readName(item, "power", path: path, PowerMode.allCases.map { ($0.name, $0) })
            fixes.append(
                ReportedFix(
                    responder: responder, sequence: seq,
                    fix: LocationFix(time: t, latitude: lat, longitude: lon, accuracy: acc),
                    duty: duty, powerMode: power))
        }
        self.fixes = fixes
        guard let t = root["telemetry"], t != .null else {
            telemetry = nil
            return
        }
        guard case .object = t else { throw RequestError(400, field: "telemetry", "expected an object, found \(t.kind)") }
        let path = "telemetry"
        var permissions = PermissionStatus.allCases.map { ($0.name, $0) }
        permissions.append(("granted", .always))
        let fallbackPower = fixes.last?.powerMode ?? .normal
        let networks = NetworkType.allCases.map { ($0.name, $0) }
        // The memo's names for two fields (`permission_status`, `network_type`), beside ours.
        let permission = try readAliased(t, "permission", "permission_status", path: path, permissions)
        let network = try readAliased(t, "network", "network_type", path: path, networks)
        telemetry = TelemetryEnvelope(
            permission: permission ?? .always,
            locationServicesEnabled: t["location_services"] == nil ? true : try readBool(t, "location_services", path: path),
            powerMode: t["power_mode"] == nil ? fallbackPower : try readName(t, "power_mode", path: path, PowerMode.allCases.map { ($0.name, $0) }),
            appState: t["app_state"] == nil ? .background : try readName(t, "app_state", path: path, AppState.allCases.map { ($0.name, $0) }),
            queueDepth: t["queue_depth"] == nil ? 0 : Int(try readInt(t, "queue_depth", path: path, in: 0...Int64(Int32.max))),
            oldestEntryAge: t["oldest_age_s"] == nil ? 0 : try readNumber(t, "oldest_age_s", path: path, in: 0...Double.greatestFiniteMagnitude),
            network: network ?? .cellular)
    }
}

/// `POST /v1/incidents` body: `{"id": 7, "lat": .., "lon": .., "fleet": "north", "ack_timeout_s": 30}`.
/// `fleet` (optional) names the fleet whose policy sets the ACK timeout; `ack_timeout_s`
/// (optional, > 0 and finite) overrides it. Neither: the fleet file's default policy (30 s
/// without a file). ``ResponderService`` resolves the two into ``ackTimeout``.
public struct IncidentRequest: Sendable {
    public var id: Int64
    public var location: LatLng
    /// Seconds each responder has to acknowledge: as given, else resolved from the fleet.
    public var ackTimeout: Double
    /// Whether `ack_timeout_s` was given.
    public var ackTimeoutGiven: Bool
    /// The fleet named, if any.
    public var fleet: String?

    public init(body: [UInt8]) throws(RequestError) {
        let root = try parseBody(body)
        guard case .object = root else { throw RequestError(400, field: "body", "expected an object, found \(root.kind)") }
        id = try readInt(root, "id", path: "", in: 0...Int64.max)
        let lat = try readNumber(root, "lat", path: "", in: -90...90)
        let lon = try readNumber(root, "lon", path: "", in: -180...180)
        location = LatLng(uncheckedLatitude: lat, longitude: lon)
        ackTimeoutGiven = root["ack_timeout_s"] != nil
        ackTimeout = ackTimeoutGiven ? try readNumber(root, "ack_timeout_s", path: "", in: 0.001...86_400) : FleetPolicy.standard.ackTimeout
        if let f = root["fleet"] {
            guard case .string(let name) = f else { throw RequestError(400, field: "fleet", "expected a string, found \(f.kind)") }
            fleet = name
        }
    }
}

/// `POST /v1/incidents/{id}/ack` body: `{"responder": 17}`.
public struct AckRequest: Sendable {
    public var responder: ResponderID

    public init(body: [UInt8]) throws(RequestError) {
        let root = try parseBody(body)
        guard case .object = root else { throw RequestError(400, field: "body", "expected an object, found \(root.kind)") }
        responder = try readResponder(root, "responder")
    }
}

// MARK: - Field readers

/// `body` as JSON; a member given twice in any object is a 400 naming it (RFC 8259 4: names
/// SHOULD be unique; the parser keeps the last, a proxy or a log may keep the first, so the
/// request would read as two different ones).
func parseBody(_ body: [UInt8]) throws(RequestError) -> JSONValue {
    let root: JSONValue
    do {
        root = try JSONValue.parse(body, nonFiniteWords: true, maximumDepth: 64)
    } catch {
        throw RequestError(400, field: "body", error.description)
    }
    if let repeated = repeatedMember(root, path: "") { throw RequestError(400, field: repeated, "given twice") }
    return root
}

/// The path of the first member given twice in an object inside `value` (at `path`), nil if none.
/// Linear in the members (a set of names past a few).
private func repeatedMember(_ value: JSONValue, path: String) -> String? {
    switch value {
    case .object(let members):
        if members.count <= 8 {
            for k in members.indices.dropFirst() where members[..<k].contains(where: { $0.0 == members[k].0 }) {
                return JSONPath.member(path, members[k].0)
            }
        } else {
            var names = Set<String>()
            for (name, _) in members where !names.insert(name).inserted { return JSONPath.member(path, name) }
        }
        for (name, member) in members {
            switch member {
            case .object, .array: if let found = repeatedMember(member, path: JSONPath.member(path, name)) { return found }
            default: break
            }
        }
    case .array(let items):
        for (k, item) in items.enumerated() {
            switch item {
            case .object, .array: if let found = repeatedMember(item, path: JSONPath.element(path, k)) { return found }
            default: break
            }
        }
    default: break
    }
    return nil
}

private func name(_ key: String, _ path: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

func readResponder(_ object: JSONValue, _ key: String) throws(RequestError) -> ResponderID {
    ResponderID(Int(try readInt(object, key, path: "", in: 0...Int64(Int32.max))))
}

/// The largest integer a JSON number is read exactly as: 2^53 - 1.
let largestExactInteger: Int64 = (1 << 53) - 1

func readInt(_ object: JSONValue, _ key: String, path: String, in range: ClosedRange<Int64>) throws(RequestError) -> Int64 {
    let field = name(key, path)
    guard let value = object[key] else { throw RequestError(400, field: field, "missing") }
    guard case .number(let v, let integral) = value, v.isFinite else {
        throw RequestError(400, field: field, "expected an integer, found \(value.kind)")
    }
    // A JSON number is read as a Double, exact for integers below 2^53 only: a larger one may
    // already have been rounded to another integer (9007199254740993 reads as ...992), so it is
    // refused rather than stored and acknowledged under a number the client never sent.
    let upper = Swift.min(range.upperBound, largestExactInteger)
    guard integral || v == v.rounded(), v >= Double(range.lowerBound), v <= Double(upper) else {
        let found = integral && abs(v) < 9.2e18 ? "\(Int64(v))" : "\(v)"
        throw RequestError(400, field: field, "expected an integer in \(range.lowerBound)...\(upper), found \(found)")
    }
    return Int64(v)
}

func readNumber(_ object: JSONValue, _ key: String, path: String, in range: ClosedRange<Double>) throws(RequestError) -> Double {
    let field = name(key, path)
    guard let value = object[key] else { throw RequestError(400, field: field, "missing") }
    guard case .number(let v, _) = value else { throw RequestError(400, field: field, "expected a number, found \(value.kind)") }
    guard v.isFinite else { throw RequestError(400, field: field, "expected a finite number, found \(v)") }
    guard range.contains(v) else { throw RequestError(400, field: field, "\(v) is outside \(range.lowerBound)...\(range.upperBound)") }
    return v
}

func readBool(_ object: JSONValue, _ key: String, path: String) throws(RequestError) -> Bool {
    let field = name(key, path)
    guard let value = object[key] else { throw RequestError(400, field: field, "missing") }
    guard case .bool(let b) = value else { throw RequestError(400, field: field, "expected a boolean, found \(value.kind)") }
    return b
}

/// The field `key` or its other name `alias` (nil if neither is present); both present must
/// name the same choice, else a 400 names `alias`.
func readAliased<T: Equatable>(
    _ object: JSONValue, _ key: String, _ alias: String, path: String, _ choices: [(String, T)]
) throws(RequestError) -> T? {
    let a: T? = object[key] == nil ? nil : try readName(object, key, path: path, choices)
    let b: T? = object[alias] == nil ? nil : try readName(object, alias, path: path, choices)
    if let a, let b, a != b, case .string(let sa) = object[key], case .string(let sb) = object[alias] {
        throw RequestError(400, field: name(alias, path), "says '\(sb)' but \(key) says '\(sa)'")
    }
    return a ?? b
}

func readName<T>(_ object: JSONValue, _ key: String, path: String, _ choices: [(String, T)]) throws(RequestError) -> T {
    let field = name(key, path)
    guard let value = object[key] else { throw RequestError(400, field: field, "missing") }
    guard case .string(let s) = value else { throw RequestError(400, field: field, "expected a string, found \(value.kind)") }
    guard let match = choices.first(where: { $0.0 == s }) else {
        throw RequestError(400, field: field, "'\(s)' is not one of \(choices.map(\.0).joined(separator: ", "))")
    }
    return match.1
}
