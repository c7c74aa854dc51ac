import CSQLite

/// One named step of a module's schema. Names are global and never change once
/// released, e.g. `todos.1-create`; the order of registration is the order of
/// application.
public struct Migration: Sendable {
    public let name: String
    public let migrate: @Sendable (Connection) throws -> Void

    public init(_ name: String, migrate: @escaping @Sendable (Connection) throws -> Void) {
        self.name = name
        self.migrate = migrate
    }

    /// A step that is a plain SQL script.
    public init(_ name: String, sql: String) {
        self.init(name) { try $0.executeScript(sql) }
    }
}

/// Applies named migrations in order. Each step and the record of its name
/// commit in one transaction, so a failing step rolls back alone and leaves the
/// earlier ones applied.
public struct Migrator: Sendable {
    public private(set) var migrations: [Migration] = []

    public init() {}

    /// Adds a module's steps after those already registered.
    public mutating func register(_ newMigrations: [Migration]) {
        for migration in newMigrations {
            precondition(!migrations.contains { $0.name == migration.name },
                         "migration \(migration.name) registered twice")
            migrations.append(migration)
        }
    }

    /// Names already applied to `connection`'s database, in application order.
    public func appliedNames(in connection: Connection) throws -> [String] {
        let hasTable = try connection.queryFirst(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") { _ in true } ?? false
        guard hasTable else { return [] }
        return try connection.query("SELECT name FROM schema_migrations ORDER BY rowid") { $0.string(0) }
    }

    /// Brings the database up to date. A database that records steps this build
    /// does not know was made by a newer version of its program: it is refused
    /// before anything is written.
    ///
    /// The header's `user_version` holds `fingerprint`, written in the same
    /// transaction that last found every step known and applied, so an
    /// up-to-date database costs one header read here instead of two queries
    /// (a program may run this at every start). Any other value (0 from an
    /// older build, another list's fingerprint from a newer one) takes the
    /// full check.
    ///
    /// Steps run with foreign keys off, as SQLite's procedure for changing a
    /// table's shape asks (https://www.sqlite.org/lang_altertable.html#otheralter):
    /// dropping a table to rebuild it must not cascade into the tables that
    /// refer to it. `PRAGMA foreign_key_check` runs before each step commits,
    /// and a step that leaves a row pointing nowhere fails and rolls back.
    /// Foreign keys can only be switched outside a transaction, so a step
    /// cannot run inside one (SQLITE_MISUSE).
    public func apply(to connection: Connection) throws {
        let fingerprint = fingerprint
        if try connection.queryFirst("PRAGMA user_version", map: { $0.int(0) }) == Int(fingerprint) {
            return
        }
        let known = Set(migrations.map(\.name))
        let applied = try appliedNames(in: connection)
        try refuseUnknown(applied, known: known, connection: connection)
        let appliedSet = Set(applied)
        let pending = migrations.filter { !appliedSet.contains($0.name) }

        if applied.isEmpty {
            try connection.writeTransaction {
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        name TEXT PRIMARY KEY NOT NULL,
                        applied_at REAL NOT NULL DEFAULT ((julianday('now') - 2440587.5) * 86400.0)
                    )
                    """)
            }
        }
        if !pending.isEmpty {
            try withForeignKeysOff(connection) {
                for migration in pending { try apply(migration, to: connection) }
            }
        }
        // Re-check under the final state (a newer build may have migrated
        // meanwhile) and record the fingerprint in the same transaction, so it
        // is never written over a newer build's steps.
        try connection.writeTransaction {
            let final = try appliedNames(in: connection)
            try refuseUnknown(final, known: known, connection: connection)
            if final.count == migrations.count {
                // A pragma takes no bound parameters; the value is our own number.
                try connection.execute("PRAGMA user_version = \(fingerprint)")
            }
        }
    }

    /// A number for the ordered list of step names (32-bit FNV-1a, kept
    /// positive and non-zero to fit `user_version` and differ from a new
    /// database's 0): two lists that differ in any name or order get
    /// different numbers but for a 1 in 2^31 chance.
    public var fingerprint: Int32 {
        var hash: UInt32 = 2_166_136_261
        for migration in migrations {
            for byte in migration.name.utf8 + [0x0A] {
                hash = (hash ^ UInt32(byte)) &* 16_777_619
            }
        }
        let positive = Int32(bitPattern: hash & 0x7FFF_FFFF)
        return positive == 0 ? 1 : positive
    }

    // MARK: - Private

    /// One step and the record of its name, in one transaction.
    private func apply(_ migration: Migration, to connection: Connection) throws {
        try connection.writeTransaction {
            // Another process may have applied it while this one waited for the lock.
            let done = try connection.queryFirst("SELECT 1 FROM schema_migrations WHERE name = ?",
                                                 migration.name) { _ in true } ?? false
            if done { return }
            try migration.migrate(connection)
            try checkForeignKeys(after: migration, in: connection)
            try connection.execute("INSERT INTO schema_migrations (name) VALUES (?)", migration.name)
        }
    }

    /// Runs `body` with foreign keys off when the connection enforces them,
    /// and turns them back on after, whatever `body` did.
    private func withForeignKeysOff(_ connection: Connection, _ body: () throws -> Void) throws {
        let enforced = try connection.queryFirst("PRAGMA foreign_keys") { $0.bool(0) } ?? false
        guard enforced else { return try body() }
        guard !connection.isInsideTransaction else {
            throw SQLiteError(code: SQLITE_MISUSE,
                              message: "migrations cannot run inside a transaction: foreign keys must be off for them",
                              sql: nil)
        }
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try body()
    }

    /// Fails the step when it left rows whose parent is missing
    /// (https://www.sqlite.org/pragma.html#pragma_foreign_key_check).
    private func checkForeignKeys(after migration: Migration, in connection: Connection) throws {
        let sql = "PRAGMA foreign_key_check"
        let violations = try connection.query(sql) { row in
            "\(row.string(0)) row \(row.optionalString(1) ?? "?") → \(row.string(2))"
        }
        guard violations.isEmpty else {
            let shown = violations.prefix(5).joined(separator: "; ")
            let more = violations.count > 5 ? " and \(violations.count - 5) more" : ""
            // SQLITE_CONSTRAINT_FOREIGNKEY, a macro Swift does not import.
            throw SQLiteError(code: SQLITE_CONSTRAINT | (3 << 8),
                              message: "migration \(migration.name) left rows that refer to missing rows: \(shown)\(more)",
                              sql: sql)
        }
    }

    private func refuseUnknown(_ applied: [String], known: Set<String>, connection: Connection) throws {
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            let configuration = connection.configuration
            throw SQLiteError(
                code: SQLITE_CANTOPEN,
                message: "\(connection.path) was made by \(configuration.newerProductNoun) (unknown migrations: "
                    + unknown.joined(separator: ", ") + "); upgrade \(configuration.productNoun) to open it. "
                    + "It was left untouched.",
                sql: nil)
        }
    }
}
