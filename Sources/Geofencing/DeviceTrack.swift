import Geodesy

/// One device's state: clock, last accepted fix, neighbourhood anchor and fence entries.
@usableFromInline
struct DeviceTrack {
    @usableFromInline var device: Int32
    /// Time of the last fix seen (accepted or gated), seconds; -infinity before any.
    @usableFromInline var lastTime = -Double.infinity
    /// Whether a fix has been accepted (then `fix`, `fixTime`, `fixAccuracy`, `anchor` are set).
    @usableFromInline var hasFix = false
    @usableFromInline var fix = UnitVector(x: 1, y: 0, z: 0)
    @usableFromInline var fixTime = 0.0
    @usableFromInline var fixAccuracy = 0.0
    /// Consecutive fixes rejected by the jump gate.
    @usableFromInline var rejections = 0
    /// Where the neighbourhood was last fetched.
    @usableFromInline var anchor = UnitVector(x: 1, y: 0, z: 0)
    /// Fence entries, in increasing horizon since the last refresh.
    @usableFromInline var entries: [FenceEntry] = []
    /// Entries `0..<processed` are visited by every fix until the next refresh.
    @usableFromInline var processed = 0
    /// `entries[processed].horizon`, or infinity: lets a fix that reaches no new entry skip
    /// the entry buffer when `processed` is 0.
    @usableFromInline var nextHorizon = Double.infinity

    @usableFromInline init(device: Int32) { self.device = device }
}
