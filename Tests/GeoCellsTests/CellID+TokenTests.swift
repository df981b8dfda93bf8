import Testing
@testable import GeoCells

/// s2_tokens.csv: S2CellId::FromToken results, validity and canonical tokens.
@Suite struct CellTokenFixtureTests {
    static let tokens = try! Fixture("s2_tokens.csv")

    @Test func everyRowMatchesS2() throws {
        var checked = 0, valid = 0, invalid = 0
        for row in Self.tokens.namedRows {
            let input = row["input_token"]
            let wantID = UInt64(row["id"])!
            let parsed = CellID.parseToken(input)
            #expect((parsed?.rawValue ?? 0) == wantID, "token '\(input)' (\(row["case"]))")
            let id = CellID(rawValue: wantID)
            #expect(id.isValid == (row["is_valid"] == "1"), "token '\(input)'")
            #expect(id.token == row["to_token"], "token '\(input)'")
            if row["is_valid"] == "1" {
                valid += 1
                #expect(id.level == row.int("level"), "token '\(input)'")
                #expect(id.face == row.int("face"), "token '\(input)'")
                #expect(try CellID(token: input) == id, "token '\(input)'")
            } else {
                invalid += 1
                #expect(throws: CellTokenError.self, "token '\(input)'") { try CellID(token: input) }
            }
            checked += 1
        }
        #expect(checked == 210)
        print("s2_tokens: \(checked) rows, \(valid) valid, \(invalid) invalid")
        #expect(invalid == 18)
    }
}

@Suite struct CellTokenTests {
    @Test func tokenForm() {
        #expect(CellID.none.token == "X")
        #expect(CellID(rawValue: 1).token == "0000000000000001")
        #expect(CellID(face: 0).child(0).token == "04")
        #expect(CellID(rawValue: 0xBFFF_FFFF_FFFF_FFFF).token == "bfffffffffffffff")
        #expect(CellID.parseToken("89C25") == CellID(rawValue: 0x89C2_5000_0000_0000))
    }

    @Test func parseTokenFollowsFromTokenWithoutValidating() {
        #expect(CellID.parseToken("") == nil)
        #expect(CellID.parseToken("X") == nil)
        #expect(CellID.parseToken("0000000000000000") == nil)
        #expect(CellID.parseToken("c") == CellID(rawValue: 0xC000_0000_0000_0000))
        #expect(CellID.parseToken("c")?.isValid == false)
        #expect(CellID.parseToken("12345678901234567") == nil)
        #expect(CellID.parseToken("é") == nil)
    }

    @Test func validatingInitNamesTheProblem() {
        #expect(throws: CellTokenError.empty) { try CellID(token: "") }
        #expect(throws: CellTokenError.tooLong(length: 17)) { try CellID(token: "12345678901234567") }
        #expect(throws: CellTokenError.invalidCharacter("g", offset: 5)) { try CellID(token: "89c25g") }
        #expect(throws: CellTokenError.invalidCharacter(" ", offset: 1)) { try CellID(token: "1 ") }
        #expect(throws: CellTokenError.invalidCharacter("x", offset: 1)) { try CellID(token: "0x1") }
        #expect(throws: CellTokenError.invalidCharacter("X", offset: 0)) { try CellID(token: "X") }
        #expect(throws: CellTokenError.invalidCell(0)) { try CellID(token: "00") }
        #expect(throws: CellTokenError.invalidCell(0x0800_0000_0000_0000)) { try CellID(token: "08") }
        #expect(throws: CellTokenError.invalidCell(~0)) { try CellID(token: "ffffffffffffffff") }
        do {
            _ = try CellID(token: "8g")
            Issue.record("expected an error")
        } catch {
            #expect(error.description.contains("offset 1"))
        }
    }
}
