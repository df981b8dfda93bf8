/// The schema, as numbered migrations applied in order at start. `schema_migrations` lists the
/// versions applied; a store newer than this program (a version it does not know) is refused.
/// On PostgreSQL the migrations run under a transaction-scoped advisory lock, so instances
/// starting together apply each one once.
public enum Migrations {
    /// Version and statements (the same SQL for both stores unless the dialect says otherwise).
    static func all(_ dialect: SQLDialect) -> [(version: Int, statements: [String])] {
        let serial = dialect == .sqlite ? "INTEGER PRIMARY KEY" : "BIGSERIAL PRIMARY KEY"
        return [
            (
                1,
                [
                    """
                    CREATE TABLE fixes (responder BIGINT NOT NULL, seq BIGINT NOT NULL, t DOUBLE PRECISION NOT NULL,
                        lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL, acc DOUBLE PRECISION NOT NULL,
                        duty TEXT NOT NULL, power TEXT NOT NULL, received_at DOUBLE PRECISION NOT NULL,
                        PRIMARY KEY (responder, seq))
                    """,
                    """
                    CREATE TABLE latest (responder BIGINT PRIMARY KEY, seq BIGINT NOT NULL, t DOUBLE PRECISION NOT NULL,
                        lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL, acc DOUBLE PRECISION NOT NULL,
                        duty TEXT NOT NULL, power TEXT NOT NULL, received_at DOUBLE PRECISION NOT NULL,
                        reason TEXT NOT NULL DEFAULT 'none', reason_at DOUBLE PRECISION NOT NULL DEFAULT 0)
                    """,
                    "CREATE TABLE statuses (responder BIGINT PRIMARY KEY, status TEXT NOT NULL, since DOUBLE PRECISION NOT NULL)",
                    """
                    CREATE TABLE incidents (id BIGINT PRIMARY KEY, lat DOUBLE PRECISION NOT NULL, lon DOUBLE PRECISION NOT NULL,
                        ack_timeout_s DOUBLE PRECISION NOT NULL, created_at DOUBLE PRECISION NOT NULL, state TEXT NOT NULL,
                        offered_to BIGINT, assignee BIGINT, trail TEXT NOT NULL)
                    """,
                    """
                    CREATE TABLE incident_acks (ack_id \(serial), incident BIGINT NOT NULL, responder BIGINT NOT NULL,
                        at DOUBLE PRECISION NOT NULL, done INTEGER NOT NULL)
                    """
                ]
            ),
            (
                2,
                [
                    // The leader reads the latest fixes that changed since its last look.
                    "CREATE INDEX latest_by_arrival ON latest (received_at)",
                    "CREATE INDEX latest_by_reason_time ON latest (reason_at)",
                    "CREATE INDEX open_incidents ON incidents (state)",
                    "CREATE INDEX pending_acks ON incident_acks (done)"
                ]
            )
        ]
    }

    /// The newest version this program knows.
    public static var latestVersion: Int { all(.sqlite).last!.version }

    /// Applies the missing migrations to `db`.
    /// - Throws: ``StoreError`` if a migration fails (nothing of it is kept) or the store has a
    ///   version this program does not know.
    public static func apply(to db: SQLConnection) throws(StoreError) {
        try db.transaction { () throws(StoreError) in
            if db.dialect == .postgresql { try db.query("SELECT pg_advisory_xact_lock(7243501)", []) }
            try db.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)")
            let applied = Set(try db.query("SELECT version FROM schema_migrations", []).compactMap { $0.first?.int }.map(Int.init))
            if let unknown = applied.first(where: { $0 > latestVersion }) {
                throw StoreError("migrate", "the store has schema version \(unknown); this program knows up to \(latestVersion)")
            }
            for migration in all(db.dialect) where !applied.contains(migration.version) {
                for statement in migration.statements { try db.execute(statement) }
                try db.query(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, CURRENT_TIMESTAMP)",
                    [.int(Int64(migration.version))])
            }
        }
    }
}
