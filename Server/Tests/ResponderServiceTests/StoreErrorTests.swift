import Foundation
import Testing
import Responders
@testable import ResponderService

/// What the stores and the token file say when something is wrong: the store location, the
/// SQL, the file, line and column named; a failed transaction keeps nothing.
@Suite(.serialized) struct StoreErrorTests {
    @Test func aStoreLocationThatCannotBeOpenedIsNamed() throws {
        #expect(throws: StoreError("--store", "expected sqlite:FILE or postgresql://..., found 'mysql://db'")) {
            try ServiceStore("mysql://db")
        }
        #expect(throws: StoreError("--store", "sqlite: needs a file name")) { try ServiceStore("sqlite:") }
        #expect(throws: StoreError("open /nonexistent/responders.db", "unable to open database file")) {
            try ServiceStore("sqlite:/nonexistent/responders.db")
        }
        // Port 1 on loopback: nothing listens. libpq's own words, without their final line break.
        let error = #expect(throws: StoreError.self) { try ServiceStore("postgresql://nobody@127.0.0.1:1/none") }
        #expect(error?.operation == "connect to PostgreSQL")
        #expect(error?.message.contains("127.0.0.1") == true && error?.message.contains("port 1") == true, "\(String(describing: error))")
        #expect(error?.message.last.map { !$0.isWhitespace } == true)
    }

    /// A store written by a newer program is refused, not migrated down or overwritten.
    @Test func aNewerSchemaIsRefused() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let location = "sqlite:" + scratch.file("s.db")
        let store = try ServiceStore(location)
        try store.with { (db) throws(StoreError) in
            try db.query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, 'later')", [.int(99)])
        }
        #expect(throws: StoreError("migrate", "the store has schema version 99; this program knows up to \(Migrations.latestVersion)")) {
            try ServiceStore(location)
        }
    }

    /// Each store: bad SQL is an error naming the statement and the database's reason; a
    /// transaction whose body throws keeps none of its writes.
    @Test(arguments: APITests.Store.allCases)
    func badSQLIsNamedAndAFailedTransactionKeepsNothing(store kind: APITests.Store) throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        guard let location = try APITests.location(kind, in: scratch) else { return }
        let store = try ServiceStore(location)
        try store.with { (db) throws(StoreError) in
            let bad = #expect(throws: StoreError.self) { try db.query("SELECT x FROM nowhere", []) }
            #expect(bad?.operation.hasSuffix("SELECT x FROM nowhere") == true)
            #expect(bad?.message.contains("nowhere") == true && bad?.message.last.map { !$0.isWhitespace } == true, "\(String(describing: bad))")
            #expect(throws: StoreError.self) { try db.execute("DROP TABLE nowhere") }
            try db.execute("CREATE TABLE kept (x INTEGER)")
            #expect(throws: StoreError("test", "refused")) {
                try db.transaction { () throws(StoreError) in
                    try db.query("INSERT INTO kept (x) VALUES ($1)", [.int(1)])
                    throw StoreError("test", "refused")
                }
            }
            try db.transaction { () throws(StoreError) in try db.query("INSERT INTO kept (x) VALUES ($1)", [.int(2)]) }
            #expect(try db.query("SELECT x FROM kept", []).map { $0.first?.int } == [2])
        }
    }

    /// More distinct statements than the SQLite connection keeps prepared: the cache starts over
    /// and every statement, old or new, still answers correctly.
    @Test func manyDistinctStatementsStillAnswer() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        let db = try SQLiteDatabase(path: scratch.file("s.db"))
        for k in 0..<230 {
            #expect(try db.query("SELECT $1 + \(k)", [.int(1_000)]).first?.first?.int == Int64(1_000 + k))
        }
        #expect(try db.query("SELECT $1 + 0", [.int(5)]).first?.first?.int == 5)
    }

    static func tokens(_ text: String, in scratch: ScratchDirectory) throws(StoreError) -> TokenTable {
        try! Data(text.utf8).write(to: URL(fileURLWithPath: scratch.file("tokens.csv")))
        return try TokenTable(path: scratch.file("tokens.csv"))
    }

    @Test func aTokenFileIsReadWithOrWithoutAHeader() throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        for text in ["responder,token\n17,a\n3,b\n", "17,a\n3,b\n"] {
            let table = try Self.tokens(text, in: scratch)
            #expect(table.responders == [ResponderID(3), ResponderID(17)])
            #expect(table.responder(for: "a") == ResponderID(17) && table.responder(for: "b") == ResponderID(3) && table.responder(for: "c") == nil)
        }
    }

    @Test(arguments: [
        ("17,a,extra\n", "1: expected 2 fields (responder,token), found 3"),
        ("responder,token\n-1,a\n", "2:1: responder must be an integer in 0...2147483647"),
        ("x,a\n", "1:1: responder must be an integer in 0...2147483647"),
        ("2147483648,a\n", "1:1: responder must be an integer in 0...2147483647"),
        ("1,\n", "1:2: a token must be non-empty without spaces"),
        ("1,a b\n", "1:2: a token must be non-empty without spaces"),
        ("1,a\n2,a\n", "2:2: token given twice"),
        ("1,\"a\n", "1:2: expected a closing '\"' for the quote opened on line 1, found the end of the input")
    ])
    func eachBadTokenRowIsNamedByFileLineAndColumn(text: String, place: String) throws {
        let scratch = ScratchDirectory()
        defer { scratch.cleanup() }
        #expect(throws: StoreError("--tokens", scratch.file("tokens.csv") + ":" + place)) { try Self.tokens(text, in: scratch) }
    }

    @Test func anUnreadableTokenFileIsNamed() {
        #expect(throws: StoreError("--tokens", "cannot open /nonexistent/tokens.csv: No such file or directory")) {
            try TokenTable(path: "/nonexistent/tokens.csv")
        }
    }

    /// A port already taken: the listener says which.
    @Test func aPortInUseIsNamed() throws {
        let first = try HTTPServer(host: "127.0.0.1", port: 0, threads: 1) { _ in HTTPResponse(status: 200, body: "") }
        defer { first.stop() }
        #expect(throws: StoreError("listen", "cannot listen on 127.0.0.1:\(first.port) (in use, or not allowed)")) {
            _ = try HTTPServer(host: "127.0.0.1", port: first.port, threads: 1) { _ in HTTPResponse(status: 200, body: "") }
        }
    }
}
