import CSQLite
import MemoCore

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
    /// does not know was made by a newer memoapp: it is refused before anything
    /// is written.
    ///
    /// The header's `user_version` holds `fingerprint`, written in the same
    /// transaction that last found every step known and applied, so an
    /// up-to-date database costs one header read here instead of two queries
    /// (this runs at the start of every command). Any other value (0 from an
    /// older memoapp, another list's fingerprint from a newer one) takes the
    /// full check.
    public func apply(to connection: Connection) throws {
        let fingerprint = fingerprint
        if try connection.queryFirst("PRAGMA user_version", map: { $0.int(0) }) == Int(fingerprint) {
            return
        }
        let known = Set(migrations.map(\.name))
        let applied = try appliedNames(in: connection)
        try refuseUnknown(applied, known: known, path: connection.path)
        var appliedSet = Set(applied)

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
        for migration in migrations where !appliedSet.contains(migration.name) {
            try connection.writeTransaction {
                // Another process may have applied it while this one waited for the lock.
                let done = try connection.queryFirst("SELECT 1 FROM schema_migrations WHERE name = ?",
                                                     migration.name) { _ in true } ?? false
                if done { return }
                try migration.migrate(connection)
                try connection.execute("INSERT INTO schema_migrations (name) VALUES (?)", migration.name)
            }
            appliedSet.insert(migration.name)
        }
        // Re-check under the final state (a newer memoapp may have migrated
        // meanwhile) and record the count in the same transaction, so the
        // count is never written over a newer memoapp's steps.
        try connection.writeTransaction {
            let final = try appliedNames(in: connection)
            try refuseUnknown(final, known: known, path: connection.path)
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

    private func refuseUnknown(_ applied: [String], known: Set<String>, path: String) throws {
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            throw SQLiteError(
                code: SQLITE_CANTOPEN,
                message: "\(path) was made by a newer memoapp (unknown migrations: "
                    + unknown.joined(separator: ", ") + "); upgrade memoapp to open it. It was left untouched.",
                sql: nil)
        }
    }
}

extension Migration {
    /// A step that gives every row of `table` a `uid`: a UUID in its lowercase
    /// text form, unique in the table, that stays with the item across export
    /// and import. Existing rows get a random one. It also made a trigger
    /// that gave one to a row inserted without it; every process paid for
    /// parsing that trigger, so a later step (`droppingUIDTrigger`) removes it,
    /// and rows inserted by hand get theirs from `Connection.fillMissingUIDs`.
    ///
    /// SQLite has no UUID function, so the text is put together from
    /// `randomblob` pieces, with the version (4) and variant (8, 9, a or b)
    /// digits fixed. Released steps never change: this SQL is frozen.
    public init(_ name: String, addingUIDTo table: String) {
        let uuid = """
            lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' \
            || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (random() & 3), 1) \
            || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
            """
        self.init(name, sql: """
            ALTER TABLE \(table) ADD COLUMN uid TEXT;
            UPDATE \(table) SET uid = \(uuid);
            CREATE UNIQUE INDEX \(table)_by_uid ON \(table) (uid);
            CREATE TRIGGER \(table)_uid_default AFTER INSERT ON \(table) WHEN new.uid IS NULL BEGIN
                UPDATE \(table) SET uid = \(uuid) WHERE id = new.id;
            END;
            """)
    }

    /// A step that removes the trigger `Migration(_:addingUIDTo:)` made on
    /// `table`: parsing it and compiling it into every insert cost `todo add`
    /// about 8% of its instructions, for rows only sqlite3 by hand inserts.
    public init(_ name: String, droppingUIDTriggerOf table: String) {
        self.init(name, sql: "DROP TRIGGER IF EXISTS \(table)_uid_default;")
    }
}
