/// Which ``FleetPolicy`` each responder follows: named fleets, each with its policy and its
/// responders, and a default policy for everyone in no fleet.
///
/// Invariants: fleet names are unique and non-empty; a responder belongs to at most one fleet.
/// Policy index 0 is the default, index `k + 1` is `fleets[k]` (``policyIndex(of:)``), so a
/// caller can keep one small integer per responder and a flat array of ``policies``.
public struct FleetTable: Hashable, Sendable, Codable {
    /// A named group of responders sharing a policy.
    public struct Fleet: Hashable, Sendable, Codable {
        public var name: String
        public var policy: FleetPolicy
        public var responders: [ResponderID]

        public init(name: String, policy: FleetPolicy, responders: [ResponderID]) {
            self.name = name
            self.policy = policy
            self.responders = responders
        }
    }

    /// A table that breaks an invariant: what and where (`fleets[2].name`, `fleets[1].responders[4]`).
    public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        /// JSON-style path of the offending part.
        public var path: String
        public var message: String
        /// `PATH: MESSAGE`.
        public var description: String { "\(path): \(message)" }
    }

    /// The policy of a responder in no fleet.
    public let defaultPolicy: FleetPolicy
    /// The fleets in the order given.
    public let fleets: [Fleet]
    private let fleetIndex: [ResponderID: Int32]

    /// Everyone on ``FleetPolicy/standard``: the behaviour with no fleet file.
    public init() {
        defaultPolicy = .standard
        fleets = []
        fleetIndex = [:]
    }

    /// A table of `fleets` over `defaultPolicy`.
    /// - Throws: ``Error`` for an empty or repeated name, or a responder listed twice (in one
    ///   fleet or two), naming the path of the second occurrence.
    public init(defaultPolicy: FleetPolicy = .standard, fleets: [Fleet]) throws(Error) {
        var index: [ResponderID: Int32] = [:]
        var names: Set<String> = []
        for (k, fleet) in fleets.enumerated() {
            guard !fleet.name.isEmpty else { throw Error(path: "fleets[\(k)].name", message: "a fleet needs a name") }
            guard names.insert(fleet.name).inserted else {
                throw Error(path: "fleets[\(k)].name", message: "fleet '\(fleet.name)' is named twice")
            }
            for (j, responder) in fleet.responders.enumerated() {
                if let other = index[responder] {
                    throw Error(
                        path: "fleets[\(k)].responders[\(j)]",
                        message: "responder \(responder.rawValue) is already in fleet '\(fleets[Int(other)].name)'")
                }
                index[responder] = Int32(k)
            }
        }
        self.defaultPolicy = defaultPolicy
        self.fleets = fleets
        fleetIndex = index
    }

    /// Every policy by index: the default, then each fleet's.
    public var policies: [FleetPolicy] { [defaultPolicy] + fleets.map(\.policy) }

    /// 0 for a responder in no fleet, `k + 1` for one in `fleets[k]`. O(1) expected.
    public func policyIndex(of responder: ResponderID) -> Int {
        fleetIndex[responder].map { Int($0) + 1 } ?? 0
    }

    /// The fleet `responder` belongs to, nil for none.
    public func fleet(of responder: ResponderID) -> Fleet? {
        fleetIndex[responder].map { fleets[Int($0)] }
    }

    /// The policy `responder` follows.
    public func policy(of responder: ResponderID) -> FleetPolicy {
        fleet(of: responder)?.policy ?? defaultPolicy
    }

    /// The fleet called `name`, nil for none.
    public func fleet(named name: String) -> Fleet? {
        fleets.first { $0.name == name }
    }
}
