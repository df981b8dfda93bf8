/// A kept fix as it is queued on the phone, sent, and stored on the server.
///
/// `(responder, sequence)` identifies it: the phone numbers its fixes 1, 2, 3, ... and never
/// reuses a number (across restarts too), so the server can drop a re-sent copy. `duty` and
/// `powerMode` are the phone's state when it took the fix; the server derives the expected
/// reporting interval from them (``CollectionProfile/forDuty(_:powerMode:)``).
/// Units as ``LocationFix``: seconds, degrees, meters.
public struct ReportedFix: Hashable, Sendable, Codable {
    /// Who reported it.
    public var responder: ResponderID
    /// Per-device sequence number, >= 1, strictly increasing in the order the phone kept fixes.
    public var sequence: Int64
    /// The position.
    public var fix: LocationFix
    /// Duty state when the fix was taken.
    public var duty: DutyState
    /// Power mode when the fix was taken.
    public var powerMode: PowerMode

    /// A fix of `responder` numbered `sequence` (>= 1, not checked here).
    public init(
        responder: ResponderID, sequence: Int64, fix: LocationFix, duty: DutyState,
        powerMode: PowerMode = .normal
    ) {
        self.responder = responder
        self.sequence = sequence
        self.fix = fix
        self.duty = duty
        self.powerMode = powerMode
    }

}
