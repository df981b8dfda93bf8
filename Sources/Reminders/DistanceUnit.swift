import Foundation

/// Distance unit of nudge text.
public enum DistanceUnit: String, Hashable, Sendable, Codable {
    case miles
    case kilometers

    /// Miles for the regions that sign road distances in miles (US, GB, and LR, MM, which use
    /// US customary units); kilometers elsewhere and when the identifier has no region.
    public init(localeIdentifier: String) {
        let region = Locale(identifier: localeIdentifier).region?.identifier
        switch region {
        case "US", "GB", "LR", "MM": self = .miles
        default: self = .kilometers
        }
    }
}
