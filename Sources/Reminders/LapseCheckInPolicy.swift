/// When a lapse check-in (AirFit's proactive engagement) is due and when it is shown.
///
/// Due when the user has been away strictly more than ``lapseSeconds`` (default 3 days) and
/// their ``absence`` preference is not `give_me_space`; at most one per lapse. It is scheduled
/// at the next ``checkInMinute`` of the user's local day (default 09:00).
public struct LapseCheckInPolicy: Hashable, Sendable, Codable {
    /// What the user wants when they stop using the app. Default `.lightNudge`.
    public var absence = AbsencePreference.lightNudge
    /// Seconds away after which (strictly) a check-in is due, > 0. Default 259,200 (3 days).
    public var lapseSeconds = 259_200.0
    /// Minute of the local day the check-in is shown, `0..<1440`. Default 540 (09:00).
    public var checkInMinute = 540

    /// The defaults.
    public init() {}
}
