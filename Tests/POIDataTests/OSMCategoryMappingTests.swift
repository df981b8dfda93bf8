@testable import POIData
import Testing

@Suite struct OSMCategoryMappingTests {
    @Test func standardRulesCoverTheIssuesTable() {
        let m = OSMCategoryMapping.standard
        let cases: [([String: String], POICategory?)] = [
            (["amenity": "fuel"], .fuel), (["amenity": "pharmacy"], .pharmacy), (["shop": "chemist"], .pharmacy),
            (["healthcare": "pharmacy"], .pharmacy), (["shop": "supermarket"], .grocery), (["shop": "grocery"], .grocery),
            (["shop": "convenience"], .grocery), (["shop": "greengrocer"], .grocery), (["amenity": "bank"], .bank),
            (["amenity": "atm"], .atm), (["amenity": "post_office"], .postOffice),
            (["amenity": "fuel", "shop": "convenience"], .fuel), (["amenity": "restaurant"], nil), ([:], nil),
            (["shop": "Supermarket"], nil)  // values are case-sensitive, as OSM's are
        ]
        for (tags, category) in cases {
            #expect(m.category(of: tags) == category, "\(tags)")
        }
    }

    @Test func callersCanMapTheirOwn() {
        let m = OSMCategoryMapping(rules: [.init("shop", "kiosk", .grocery), .init("amenity", "bureau_de_change", .bank)])
        #expect(m.category(of: ["shop": "kiosk"]) == .grocery)
        #expect(m.category(of: ["amenity": "bank"]) == nil)
    }

    @Test func categoryRawValuesAreTheColumnSpellings() {
        #expect(POICategory.allCases.map(\.rawValue) == ["fuel", "pharmacy", "grocery", "bank", "atm", "post_office"])
        #expect(POICategory(columnValue: "post_office") == .postOffice)
        #expect(POICategory.allCases.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
    }
}
