import Geodesy

/// One device's complete ``TransitionDetector`` state, as a `Codable` value: restoring it into a
/// detector built on the same fences and configuration continues the stream exactly as if it had
/// never stopped. Fences are named by id, so the snapshot does not depend on fence order.
/// Times in seconds; the last accepted fix and the anchor (where the device's nearby fences were
/// last fetched) as unit vectors (x, y, z), as the detector keeps them (the anchor in single
/// precision, the fix to within a millimeter); the fix's accuracy in meters.
///
/// Only state is stored: after a restore every held fence is looked at on the device's next
/// fix, which works out again when each must next be looked at.
public struct DeviceSnapshot: Hashable, Sendable, Codable {
    /// Where the device is for one fence, as far as the detector has decided.
    public enum Presence: UInt8, Hashable, Sendable, Codable {
        /// No decisive fix yet (encoded 0).
        case unknown = 0
        /// Decisively outside (encoded 1).
        case outside = 1
        /// Decisively inside (encoded 2).
        case inside = 2
    }

    /// One fence's state for the device.
    public struct FenceState: Hashable, Sendable, Codable {
        /// The fence's id.
        public var fence: Int32
        /// The decided state.
        public var state: Presence
        /// Consecutive decisive fixes towards the other state.
        public var pending: UInt8
        /// Whether the dwell event is done (or not wanted) for the current stay.
        public var dwellDone: Bool
        /// Time of the first fix of the pending entry run, seconds (read while outside).
        public var pendingSince: Double
        /// Time of the entry event, seconds (read while inside).
        public var enteredAt: Double

        /// A fence state with these fields.
        public init(fence: Int32, state: Presence, pending: UInt8, dwellDone: Bool, pendingSince: Double, enteredAt: Double) {
            self.fence = fence
            self.state = state
            self.pending = pending
            self.dwellDone = dwellDone
            self.pendingSince = pendingSince
            self.enteredAt = enteredAt
        }
    }

    /// The device's id.
    public var device: Int32
    /// Time of the last fix seen; nil before any.
    public var lastTime: Double?
    /// Last accepted fix; nil before any (then `anchor` is nil too).
    public var fix: [Double]?
    /// Time of the last accepted fix, seconds.
    public var fixTime: Double
    /// Reported accuracy of the last accepted fix, meters.
    public var fixAccuracy: Double
    /// Consecutive fixes rejected by the jump gate.
    public var rejections: Int
    /// Where the nearby fences were last fetched; nil before any accepted fix.
    public var anchor: [Double]?
    /// The fences the detector holds state for (any order).
    public var fences: [FenceState]
}
