/// Maps OpenStreetMap tags to ``POICategory``: an ordered list of `key=value` rules, the first
/// matching rule wins.
///
/// The ``standard`` rules follow the POI extract's README: every `amenity` rule comes before
/// every `healthcare` and `shop` rule, so a fuel station also tagged `shop=convenience` is `fuel`.
/// Callers with other tagging conventions build their own rule list; the raw tags of every POI
/// stay available in ``POICatalog`` for mappings that rules cannot express.
public struct OSMCategoryMapping: Hashable, Sendable {
    /// One rule: the tag `key=value` (exact, case-sensitive) means `category`.
    public struct Rule: Hashable, Sendable {
        /// OSM tag key (`amenity`, `shop`, ...).
        public var key: String
        /// OSM tag value (`pharmacy`, `supermarket`, ...).
        public var value: String
        /// The category a POI with this tag gets.
        public var category: POICategory

        /// The rule `key=value` -> `category`.
        public init(_ key: String, _ value: String, _ category: POICategory) {
            self.key = key
            self.value = value
            self.category = category
        }
    }

    /// Rules in priority order.
    public var rules: [Rule]

    /// A mapping that tries `rules` in order; the first match wins.
    public init(rules: [Rule]) { self.rules = rules }

    /// amenity=fuel, pharmacy, bank, atm, post_office; healthcare=pharmacy; shop=chemist,
    /// supermarket, grocery, convenience, greengrocer.
    public static let standard = OSMCategoryMapping(rules: [
        Rule("amenity", "fuel", .fuel),
        Rule("amenity", "pharmacy", .pharmacy),
        Rule("amenity", "bank", .bank),
        Rule("amenity", "atm", .atm),
        Rule("amenity", "post_office", .postOffice),
        Rule("healthcare", "pharmacy", .pharmacy),
        Rule("shop", "chemist", .pharmacy),
        Rule("shop", "supermarket", .grocery),
        Rule("shop", "grocery", .grocery),
        Rule("shop", "convenience", .grocery),
        Rule("shop", "greengrocer", .grocery)
    ])

    /// The category of a set of tags (`tag(key)` gives a tag's value or `nil`), or `nil`.
    public func category(tag: (String) -> String?) -> POICategory? {
        for rule in rules where tag(rule.key) == rule.value { return rule.category }
        return nil
    }

    /// The category of a tag dictionary, or `nil`.
    public func category(of tags: [String: String]) -> POICategory? {
        category { tags[$0] }
    }
}
