/// Steps for a `uid` column: a random UUID (version 4, lowercase text) on
/// every row, unique in its table, that identifies the row wherever it is
/// copied to, unlike its rowid.
extension Migration {
    /// A step that gives every row of `table` a `uid`; existing rows get a
    /// random one. It also makes a trigger that gives one to a row inserted
    /// without it. Every connection pays for parsing that trigger and every
    /// insert for running it, so a later step (`droppingUIDTriggerOf`) may
    /// remove it, leaving rows inserted without a uid to
    /// `Connection.fillMissingUIDs`.
    ///
    /// Steps once applied never change: this SQL is frozen.
    public init(_ name: String, addingUIDTo table: String) {
        let uuid = Migration.randomUUIDExpression
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
    /// `table`: parsing it and compiling it into every insert costs each
    /// insert far more than rows inserted without a uid are worth.
    public init(_ name: String, droppingUIDTriggerOf table: String) {
        self.init(name, sql: "DROP TRIGGER IF EXISTS \(table)_uid_default;")
    }

    // MARK: - Private

    /// A random UUID as SQL: SQLite has no UUID function, so the text is put
    /// together from `randomblob` pieces, with the version (4) and variant
    /// (8, 9, a or b) digits fixed.
    static let randomUUIDExpression = """
        lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' \
        || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (random() & 3), 1) \
        || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))
        """
}
