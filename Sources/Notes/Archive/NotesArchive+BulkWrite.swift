import SQLite

extension NotesArchive {
    /// Runs `body`, which adds many to-dos and memos to a home that had none.
    ///
    /// Inside the caller's transaction, the plain indexes of the to-do and
    /// memo tables (not the unique ones: an import looks uids up in them as
    /// it goes) and the triggers that index each new row for search are
    /// dropped, then put back with their own SQL, so the schema is what the
    /// migrations made. An index made whole sorts its rows once; kept up row
    /// by row it is a search and an insert per row.
    ///
    /// The search indexes are filled by `BulkWrite`, a chunk of rows at a
    /// time, while the body runs (see there): the body adds rows only (no
    /// update or delete of to-dos and memos), and calls `itemStored` for each
    /// item it stores. Rows it adds without saying so are indexed at the end.
    /// - Parameter indexingEvery: how many stored items make a chunk.
    public static func bulkWrite<T>(in connection: Connection, indexingEvery chunkItems: Int = BulkWrite.chunkItems,
                                    _ body: (BulkWrite) throws -> T) throws -> T {
        let deferred = try connection.query("""
            SELECT type, name, sql FROM sqlite_master AS object
            WHERE (type = 'trigger' AND name IN ('memos_search_insert', 'todos_search_insert'))
               OR (type = 'index' AND tbl_name IN ('todos', 'memos', 'todo_tags', 'memo_tags') AND sql IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM pragma_index_list(object.tbl_name) AS list
                                   WHERE list.name = object.name AND list."unique"))
            ORDER BY type, name
            """) { row in (type: row.string(0), name: row.string(1), sql: row.string(2)) }
        for object in deferred { try connection.execute("DROP \(object.type.uppercased()) \(object.name)") }
        let bulk = try BulkWrite(connection: connection, chunkItems: chunkItems)
        // The CHECKs of `todos` that test a value against a list of three or
        // more (priority, repeat_unit) make SQLite build a small temporary
        // table each time one row is inserted, a quarter of what a
        // Taskwarrior import's writer spent. Every to-do and memo the body
        // writes is checked before it comes here (typed enums; a rule's
        // numbers by `RepeatRule.isValid`, in `insertUnlessPresent` too), so
        // SQLite is not asked again while it writes them; a body that goes on
        // to write other tables calls `checkConstraintsAgain` first. The
        // pragma expires prepared statements, so none compiled without the
        // CHECKs outlives the body.
        // (https://www.sqlite.org/pragma.html#pragma_ignore_check_constraints)
        try connection.execute("PRAGMA ignore_check_constraints = ON")
        let result: T
        do {
            result = try body(bulk)
        } catch {
            try? checkConstraintsAgain(in: connection)
            throw error
        }
        try checkConstraintsAgain(in: connection)
        // An import keeps its temporary files in memory for its statement
        // journals; a sort of every row for an index would then be held
        // whole, growing with the rows (see withTemporaryFilesOnDisk).
        try connection.withTemporaryFilesOnDisk {
            for object in deferred { try connection.execute(object.sql) }
        }
        try bulk.finish()
        return result
    }

    /// Has SQLite check every CHECK constraint again, inside the body of
    /// `bulkWrite`, before it writes rows other than to-dos and memos (an
    /// export's timers).
    public static func checkConstraintsAgain(in connection: Connection) throws {
        try connection.execute("PRAGMA ignore_check_constraints = OFF")
    }

    /// The search indexes of a bulk write (`bulkWrite`), filled while it runs.
    ///
    /// Every `chunkItems` items stored, the rows added to `todos` and `memos`
    /// since the last chunk are indexed by one statement per table. An
    /// import's writer waits for its reader about half the time (parsing is
    /// the slower half), and a queue of items read ahead (`HandOff`) lets the
    /// reader go on while the writer indexes: the indexing fills time the
    /// writer would have spent waiting, instead of all of it coming after the
    /// last row (a restore of 2,000,000 items: 72-74 s before, 56-58 s with
    /// this).
    ///
    /// Each statement ends as an FTS5 segment of its own (FTS5 writes what it
    /// holds in memory at the next statement's savepoint), so a chunk is
    /// large: smaller ones leave more segments to merge. No `optimize`
    /// follows: the segments left cost a search at a million items up to
    /// 0.65 ms (against the same home optimized, means of 3.2-5.4 ms became
    /// 3.3-5.9), and the merge cost a restore of 2,000,000 items about 8 s.
    /// (https://www.sqlite.org/fts5.html#the_optimize_command)
    ///
    /// A chunk takes the rows whose ids are above the last one indexed; when
    /// the body adds an id below that, the counts disagree at the end and the
    /// table's index is rebuilt whole, so no row is ever left out.
    public final class BulkWrite {
        /// 100,000 items: of 25,000, 50,000, 100,000 and 200,000, the
        /// quickest restore of 2,000,000 items.
        public static let chunkItems = 100_000

        private let connection: Connection
        private let chunkItems: Int
        private var itemsSinceChunk = 0
        private var tables: [IndexedTable]

        init(connection: Connection, chunkItems: Int) throws {
            precondition(chunkItems > 0, "a chunk holds at least one item")
            self.connection = connection
            self.chunkItems = chunkItems
            tables = [IndexedTable(table: "todos", columns: "title, note, tags"),
                      IndexedTable(table: "memos", columns: "title, text, tags")]
            for table in tables {
                try connection.execute("INSERT INTO \(table.index) (\(table.index), rank) VALUES ('hashsize', ?)",
                                       BulkWrite.hashBytes)
            }
        }

        /// One more item stored; every `chunkItems`, the rows added since the
        /// last chunk are indexed.
        public func itemStored() throws {
            itemsSinceChunk += 1
            guard itemsSinceChunk >= chunkItems else { return }
            try indexNewRows()
        }

        // MARK: - Private

        private struct IndexedTable {
            let table: String
            let columns: String
            var index: String { "\(table)_search" }
            /// The largest id indexed, and how many rows were.
            var indexedUpTo: Int64 = 0
            var indexedCount = 0
        }

        private func indexNewRows() throws {
            itemsSinceChunk = 0
            for number in tables.indices {
                var table = tables[number]
                let top = try connection.queryFirst("SELECT max(id) FROM \(table.table)") {
                    $0.isNull(0) ? nil : $0.int64(0) } ?? nil
                guard let top, top > table.indexedUpTo else { continue }
                try connection.execute("""
                    INSERT INTO \(table.index) (rowid, \(table.columns))
                    SELECT id, \(table.columns) FROM \(table.table) WHERE id > ? AND id <= ?
                    """, table.indexedUpTo, top)
                table.indexedCount += connection.changes
                table.indexedUpTo = top
                tables[number] = table
            }
        }

        /// Indexes the last rows, rebuilds a table's index whose rows were
        /// not all reached by the chunks, and puts the segment size back.
        fileprivate func finish() throws {
            try indexNewRows()
            for table in tables {
                let count = try connection.queryFirst("SELECT count(*) FROM \(table.table)") { $0.int(0) } ?? 0
                if count != table.indexedCount {
                    try connection.execute("INSERT INTO \(table.index) (\(table.index)) VALUES ('rebuild')")
                }
                // The setting lives in the index's config table: put back to
                // FTS5's default and its row removed, the table is as the
                // migrations left it.
                try connection.execute("INSERT INTO \(table.index) (\(table.index), rank) VALUES ('hashsize', ?)",
                                       BulkWrite.defaultHashBytes)
                try connection.execute("DELETE FROM \(table.index)_config WHERE k = 'hashsize'")
            }
        }

        /// FTS5 writes a segment each time the terms it gathers in memory
        /// reach `hashsize` (1 MiB unless set): with the default, a chunk
        /// would be written as dozens of small segments for FTS5 to merge;
        /// rebuilding a million memos took 33 s with 4 MiB, 21 s with 64.
        /// (https://www.sqlite.org/fts5.html#fts5_configuration_options)
        static let hashBytes = 64 << 20
        /// FTS5's own default.
        static let defaultHashBytes = 1 << 20
    }
}
