#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLibPQ

/// A ``SQLConnection`` to PostgreSQL through libpq. Parameters travel as text (numbers in
/// their shortest round-trip form), results come back as text.
public final class PostgresDatabase: SQLConnection {
    public var dialect: SQLDialect { .postgresql }
    private let connection: OpaquePointer

    /// Connects to `url` (`postgresql://user@host:port/db`).
    public init(url: String) throws(StoreError) {
        guard let conn = PQconnectdb(url) else { throw StoreError("connect", "out of memory") }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(conn))
            PQfinish(conn)
            throw StoreError("connect to PostgreSQL", message.trimmingTrailingNewlines)
        }
        connection = conn
        try execute("SET client_min_messages = warning")
    }

    deinit { PQfinish(connection) }

    private var message: String { String(cString: PQerrorMessage(connection)).trimmingTrailingNewlines }

    /// Whether the connection is still usable.
    public var isHealthy: Bool { PQstatus(connection) == CONNECTION_OK }

    public func execute(_ sql: String) throws(StoreError) {
        guard let result = PQexec(connection, sql) else { throw StoreError(String(sql.prefix(60)), message) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw StoreError(String(sql.prefix(60)), message) }
    }

    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [[SQLValue]] {
        let texts: [String?] = parameters.map { value in
            switch value {
            case .null: nil
            case .int(let v): String(v)
            case .double(let v): v.isFinite ? String(v) : (v.isNaN ? "NaN" : (v > 0 ? "Infinity" : "-Infinity"))
            case .text(let s): s
            }
        }
        let result: OpaquePointer? = withCStrings(texts) { pointers in
            PQexecParams(connection, sql, Int32(pointers.count), nil, pointers, nil, nil, 0)
        }
        guard let result else { throw StoreError(String(sql.prefix(60)), message) }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw StoreError(String(sql.prefix(60)), message) }
        let rows = PQntuples(result), columns = PQnfields(result)
        var out: [[SQLValue]] = []
        out.reserveCapacity(Int(rows))
        for r in 0..<rows {
            var row: [SQLValue] = []
            row.reserveCapacity(Int(columns))
            for c in 0..<columns {
                row.append(PQgetisnull(result, r, c) == 1 ? .null : .text(String(cString: PQgetvalue(result, r, c))))
            }
            out.append(row)
        }
        return out
    }
}

private func withCStrings<R>(_ strings: [String?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
    let buffers: [UnsafeMutablePointer<CChar>?] = strings.map { $0.map { strdup($0)! } }
    defer { for b in buffers { free(b) } }
    return body(buffers.map { $0.map { UnsafePointer($0) } })
}

extension String {
    var trimmingTrailingNewlines: String {
        var s = self
        while s.last == "\n" || s.last == " " { s.removeLast() }
        return s
    }
}
