import JSON
import CommandSupport
import Foundation
import Responders

/// The fleet file of `responder-server --fleets FILE` (docs/SERVICE.md): a default policy and
/// named fleets, each with its responders and its policy, read into a ``FleetTable``.
///
/// ```
/// {"default": {"ack_timeout_s": 20},
///  "fleets": [{"name": "north", "responders": [1, 2, 3],
///              "policy": {"on_duty": {"interval_s": 30}, "ack_timeout_s": 15}}]}
/// ```
/// A policy object has the optional keys `on_duty`, `on_mission`, `low_power` (each with
/// optional `interval_s`, `distance_m`, `degraded_after_s`, `offline_after_s`), `ack_timeout_s`,
/// `backoff_initial_s` and `backoff_max_s`. What a fleet leaves out is the default policy's, and
/// what the default leaves out is ``FleetPolicy/standard``'s. A block that sets `interval_s` but
/// not a threshold scales the inherited threshold with the interval (the memo's 1.5 x and 3 x on
/// duty). Unknown keys are errors, so a misspelt flag is never ignored.
public enum FleetFile {
    /// Parses a fleet file's text.
    /// - Throws: ``RequestError`` whose `field` is the JSON path of the first problem
    ///   (`fleets[1].policy.on_duty.offline_after_s`).
    public static func parse(_ bytes: [UInt8]) throws(RequestError) -> FleetTable {
        let root = try parseBody(bytes)
        guard case .object = root else { throw RequestError(400, field: "body", "expected an object, found \(root.kind)") }
        try only(root, ["default", "fleets"], path: "")
        let defaults = try root["default"].map { (p) throws(RequestError) in try policy(p, path: "default", base: .standard) } ?? .standard
        var fleets: [FleetTable.Fleet] = []
        if let list = root["fleets"] {
            guard case .array(let items) = list else { throw RequestError(400, field: "fleets", "expected an array, found \(list.kind)") }
            for (k, item) in items.enumerated() {
                let path = "fleets[\(k)]"
                guard case .object = item else { throw RequestError(400, field: path, "expected an object, found \(item.kind)") }
                try only(item, ["name", "responders", "policy"], path: path)
                guard case .string(let name)? = item["name"] else {
                    throw RequestError(400, field: path + ".name", item["name"].map { "expected a string, found \($0.kind)" } ?? "missing")
                }
                guard case .array(let ids)? = item["responders"] else {
                    throw RequestError(
                        400, field: path + ".responders", item["responders"].map { "expected an array, found \($0.kind)" } ?? "missing")
                }
                var responders: [ResponderID] = []
                for j in ids.indices {
                    let wrapper = JSONValue.object([("id", ids[j])])
                    do {
                        responders.append(ResponderID(Int(try readInt(wrapper, "id", path: "", in: 0...Int64(Int32.max)))))
                    } catch {
                        throw RequestError(400, field: "\(path).responders[\(j)]", error.message)
                    }
                }
                let p = try item["policy"].map { (p) throws(RequestError) in try policy(p, path: path + ".policy", base: defaults) } ?? defaults
                fleets.append(FleetTable.Fleet(name: name, policy: p, responders: responders))
            }
        }
        do {
            return try FleetTable(defaultPolicy: defaults, fleets: fleets)
        } catch {
            throw RequestError(400, field: error.path, error.message)
        }
    }

    /// Reads and parses the file at `path`.
    /// - Throws: ``StoreError`` for `--fleets`: `FILE: JSON.PATH: message`.
    public static func read(path: String) throws(StoreError) -> FleetTable {
        let bytes: [UInt8]
        do { bytes = Array(try TextFile.read(path, limit: 1 << 20)) } catch { throw StoreError("--fleets", error.description) }
        do {
            return try parse(bytes)
        } catch {
            throw StoreError("--fleets", "\(path): \(error.field == "body" ? "" : error.field + ": ")\(error.message)")
        }
    }

    /// A policy as the file writes it, every key present (what `GET /v1/policy` answers).
    public static func json(_ p: FleetPolicy) -> String {
        func block(_ b: FleetPolicy.Block) -> String {
            "{\"interval_s\": \(jsonNumber(b.profile.interval)), \"distance_m\": \(jsonNumber(b.profile.distance)), "
                + "\"degraded_after_s\": \(jsonNumber(b.thresholds.degradedAfter)), \"offline_after_s\": \(jsonNumber(b.thresholds.offlineAfter))}"
        }
        return "{\"on_duty\": \(block(p.onDuty)), \"on_mission\": \(block(p.onMission)), \"low_power\": \(block(p.lowPower)), "
            + "\"ack_timeout_s\": \(jsonNumber(p.ackTimeout)), \"backoff_initial_s\": \(jsonNumber(p.initialBackoff)), "
            + "\"backoff_max_s\": \(jsonNumber(p.maximumBackoff))}"
    }

    /// One policy object over `base`.
    static func policy(_ value: JSONValue, path: String, base: FleetPolicy) throws(RequestError) -> FleetPolicy {
        guard case .object = value else { throw RequestError(400, field: path, "expected an object, found \(value.kind)") }
        try only(value, ["on_duty", "on_mission", "low_power", "ack_timeout_s", "backoff_initial_s", "backoff_max_s"], path: path)
        var p = base
        if let v = value["on_duty"] { p.onDuty = try block(v, path: path + ".on_duty", base: base.onDuty) }
        if let v = value["on_mission"] { p.onMission = try block(v, path: path + ".on_mission", base: base.onMission) }
        if let v = value["low_power"] { p.lowPower = try block(v, path: path + ".low_power", base: base.lowPower) }
        if value["ack_timeout_s"] != nil { p.ackTimeout = try readNumber(value, "ack_timeout_s", path: path, in: 0.001...86_400) }
        if value["backoff_initial_s"] != nil { p.initialBackoff = try readNumber(value, "backoff_initial_s", path: path, in: 0.001...3_600) }
        if value["backoff_max_s"] != nil { p.maximumBackoff = try readNumber(value, "backoff_max_s", path: path, in: 0.001...3_600) }
        guard p.initialBackoff <= p.maximumBackoff else {
            throw RequestError(
                400, field: path + (value["backoff_max_s"] != nil ? ".backoff_max_s" : ".backoff_initial_s"),
                "backoff_initial_s (\(p.initialBackoff)) must not exceed backoff_max_s (\(p.maximumBackoff))")
        }
        return p
    }

    /// One duty block over `base`.
    static func block(_ value: JSONValue, path: String, base: FleetPolicy.Block) throws(RequestError) -> FleetPolicy.Block {
        guard case .object = value else { throw RequestError(400, field: path, "expected an object, found \(value.kind)") }
        try only(value, ["interval_s", "distance_m", "degraded_after_s", "offline_after_s"], path: path)
        let interval = value["interval_s"] == nil ? base.profile.interval : try readNumber(value, "interval_s", path: path, in: 0.001...86_400)
        let distance =
            value["distance_m"] == nil ? base.profile.distance : try readNumber(value, "distance_m", path: path, in: 0...20_000_000)
        let scale = interval / base.profile.interval
        let degraded =
            value["degraded_after_s"] == nil
            ? base.thresholds.degradedAfter * scale : try readNumber(value, "degraded_after_s", path: path, in: 0.001...604_800)
        let offline =
            value["offline_after_s"] == nil
            ? base.thresholds.offlineAfter * scale : try readNumber(value, "offline_after_s", path: path, in: 0.001...604_800)
        guard degraded <= offline else {
            throw RequestError(
                400, field: path + (value["offline_after_s"] != nil ? ".offline_after_s" : ".degraded_after_s"),
                "degraded_after_s (\(jsonNumber(degraded))) must not exceed offline_after_s (\(jsonNumber(offline)))")
        }
        return FleetPolicy.Block(
            profile: CollectionProfile(interval: interval, distance: distance),
            thresholds: LivenessThresholds(degradedAfter: degraded, offlineAfter: offline))
    }

    /// Refuses keys of `object` outside `allowed`, naming the first.
    static func only(_ object: JSONValue, _ allowed: Set<String>, path: String) throws(RequestError) {
        guard case .object(let members) = object else { return }
        if let unknown = members.first(where: { !allowed.contains($0.0) }) {
            throw RequestError(
                400, field: path.isEmpty ? unknown.0 : "\(path).\(unknown.0)",
                "unknown key (expected one of \(allowed.sorted().joined(separator: ", ")))")
        }
    }
}
