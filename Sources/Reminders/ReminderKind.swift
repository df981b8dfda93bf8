/// What a decision is about; the `kind` column of the benchmark's decisions file.
public enum ReminderKind: UInt8, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// A completion offer ("Mark done?") from a ``CompletionOfferRule``.
    case offer
    /// Entering an approach ring: "You're 3 mi from a pharmacy — pick up prescription?".
    case approach
    /// Entering the arrival fence: "Arriving at Home — water the plants now?".
    case arrival
    /// Dwelling inside the arrival fence: "Still need to water the plants?".
    case postArrival
    /// Several triggers shown as one notification.
    case bundle
    /// A lapse check-in (see ``LapseCheckIn``).
    case checkIn

    /// `offer`, `approach`, `arrival`, `post_arrival`, `bundle`, `check_in`.
    public var description: String {
        switch self {
        case .offer: return "offer"
        case .approach: return "approach"
        case .arrival: return "arrival"
        case .postArrival: return "post_arrival"
        case .bundle: return "bundle"
        case .checkIn: return "check_in"
        }
    }

    /// The escalation level of a trigger within one trip: an approach ring `-radius` (nearer is
    /// higher), arrival 1, post-arrival 2. A task's trigger nudges only above the trip's level.
    @inlinable
    public func level(distanceMeters: Double) -> Double {
        switch self {
        case .approach: return -distanceMeters
        case .arrival: return 1
        case .postArrival: return 2
        case .offer, .bundle, .checkIn: return 3
        }
    }

    /// More specific kinds win when two triggers of one task meet in a bundle.
    var specificity: Int {
        switch self {
        case .approach: return 0
        case .arrival: return 1
        case .postArrival: return 2
        case .offer: return 3
        case .bundle, .checkIn: return 4
        }
    }
}
