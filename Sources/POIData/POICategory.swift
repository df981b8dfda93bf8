/// The task categories a POI can belong to: what a user means by "buy fuel", "buy medicine",
/// "buy groceries", "go to the bank", "get cash", "post a letter".
///
/// Raw values are the spellings of the `category` column of the OpenStreetMap POI CSVs
/// (`post_office` with an underscore). Cases are declared (and sorted) in that order.
public enum POICategory: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    case fuel
    case pharmacy
    case grocery
    case bank
    case atm
    case postOffice = "post_office"

    /// The category of a `category` column value (exact raw value), or `nil`.
    @inlinable
    public init?(columnValue: some StringProtocol) {
        self.init(rawValue: String(columnValue))
    }

    /// The category a person names: the raw value (`post_office`), or the name as prose writes
    /// it, ignoring case and surrounding spaces, with a space or a hyphen for the underscore
    /// (`post office`, `Post-Office`, `PHARMACY`); `nil` for anything else.
    public init?(name: some StringProtocol) {
        let trimmed = name.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
        let key = String(trimmed).lowercased().map { $0 == " " || $0 == "-" ? "_" : $0 }
        self.init(rawValue: String(key))
    }

    /// Position in `allCases`.
    @inlinable
    public var ordinal: Int {
        switch self {
        case .fuel: return 0
        case .pharmacy: return 1
        case .grocery: return 2
        case .bank: return 3
        case .atm: return 4
        case .postOffice: return 5
        }
    }

    /// Declaration order (the order of `allCases`).
    public static func < (a: POICategory, b: POICategory) -> Bool { a.ordinal < b.ordinal }

    /// The raw value (`pharmacy`, ...).
    public var description: String { rawValue }
}
