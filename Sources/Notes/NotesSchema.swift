import SQLite

/// The tables of to-dos and memos, and their search indexes.
///
/// - `todos`, `memos`: one row each. Ids are `AUTOINCREMENT`, so an id is never
///   given again after its row is removed. Times are REAL seconds since 1970.
/// - `todo_tags`, `memo_tags`: one row per tag, for exact (case-insensitive)
///   `--tag` filtering through an index. The `tags` column of the item holds
///   the same tags joined by spaces, written by the store in the same
///   transaction; it is what search indexes and what lists read.
/// - `todos_search`, `memos_search`: FTS5 indexes of every character and
///   every pair of characters of the title, the note or text, and the tags,
///   made by memoapp's own tokenizer (`SearchTokenizer`), which every
///   connection must have registered (`registerSearchTokenizer()`). They are
///   external-content tables over `todos` and `memos`, kept in step by
///   triggers, so every write updates the index in its own transaction. A
///   program without the tokenizer (the sqlite3 shell) can read every table
///   but cannot write a to-do or a memo: the triggers fail with "no such
///   tokenizer", and the write is undone whole.
///   Until notes.7 and notes.8 they were `todos_fts`, `memos_fts`, trigram
///   indexes (https://www.sqlite.org/fts5.html#the_trigram_tokenizer), which
///   cannot answer queries under three characters.
/// - `has_nul`: whether the title or text holds a NUL character, computed by
///   SQLite on write. The trigram index stopped reading at a NUL, so search
///   used to scan these rows (found by a partial index) the slow way; the
///   tokenizer reads past a NUL, and notes.7 and notes.8 drop that index.
/// - `repeat_every`, `repeat_unit`, `repeat_from`, `repeat_day`: a recurring
///   to-do's `RepeatRule` (NULL for a one-off); `repeat_day` is the day of
///   the month monthly and yearly rules keep.
/// - `uid`: a UUID that identifies the item across data homes (export and
///   import); unique, set by the stores on every row they write (NULL only in
///   a row inserted by hand, until an export gives it one).
public enum NotesSchema {
    /// The module's migrations, in order. Names never change once released.
    public static let migrations: [Migration] = [
        Migration("notes.1-todos", sql: """
            CREATE TABLE todos (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                note TEXT,
                priority INTEGER CHECK (priority IN (1, 2, 3)),
                due_at REAL,
                due_has_time INTEGER NOT NULL DEFAULT 0,
                tags TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                done_at REAL,
                has_nul INTEGER GENERATED ALWAYS AS (instr(title, char(0)) > 0 OR instr(note, char(0)) > 0) STORED
            );
            CREATE TABLE todo_tags (
                todo_id INTEGER NOT NULL REFERENCES todos(id) ON DELETE CASCADE,
                tag TEXT NOT NULL COLLATE NOCASE,
                PRIMARY KEY (todo_id, tag)
            ) WITHOUT ROWID;
            CREATE INDEX todo_tags_by_tag ON todo_tags (tag, todo_id);
            CREATE INDEX todos_by_due ON todos (due_at);
            CREATE INDEX todos_with_nul ON todos (id) WHERE has_nul;
            CREATE VIRTUAL TABLE todos_fts USING fts5(
                title, note, tags, content = 'todos', content_rowid = 'id', tokenize = 'trigram');
            CREATE TRIGGER todos_fts_insert AFTER INSERT ON todos BEGIN
                INSERT INTO todos_fts (rowid, title, note, tags) VALUES (new.id, new.title, new.note, new.tags);
            END;
            CREATE TRIGGER todos_fts_delete AFTER DELETE ON todos BEGIN
                INSERT INTO todos_fts (todos_fts, rowid, title, note, tags)
                    VALUES ('delete', old.id, old.title, old.note, old.tags);
            END;
            CREATE TRIGGER todos_fts_update AFTER UPDATE OF title, note, tags ON todos BEGIN
                INSERT INTO todos_fts (todos_fts, rowid, title, note, tags)
                    VALUES ('delete', old.id, old.title, old.note, old.tags);
                INSERT INTO todos_fts (rowid, title, note, tags) VALUES (new.id, new.title, new.note, new.tags);
            END;
            """),
        Migration("notes.2-memos", sql: """
            CREATE TABLE memos (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT,
                text TEXT NOT NULL,
                is_pinned INTEGER NOT NULL DEFAULT 0,
                tags TEXT NOT NULL DEFAULT '',
                created_at REAL NOT NULL,
                updated_at REAL NOT NULL,
                has_nul INTEGER GENERATED ALWAYS AS (instr(title, char(0)) > 0 OR instr(text, char(0)) > 0) STORED
            );
            CREATE TABLE memo_tags (
                memo_id INTEGER NOT NULL REFERENCES memos(id) ON DELETE CASCADE,
                tag TEXT NOT NULL COLLATE NOCASE,
                PRIMARY KEY (memo_id, tag)
            ) WITHOUT ROWID;
            CREATE INDEX memo_tags_by_tag ON memo_tags (tag, memo_id);
            CREATE INDEX memos_by_pin_and_age ON memos (is_pinned, created_at);
            CREATE INDEX memos_with_nul ON memos (id) WHERE has_nul;
            CREATE VIRTUAL TABLE memos_fts USING fts5(
                title, text, tags, content = 'memos', content_rowid = 'id', tokenize = 'trigram');
            CREATE TRIGGER memos_fts_insert AFTER INSERT ON memos BEGIN
                INSERT INTO memos_fts (rowid, title, text, tags) VALUES (new.id, new.title, new.text, new.tags);
            END;
            CREATE TRIGGER memos_fts_delete AFTER DELETE ON memos BEGIN
                INSERT INTO memos_fts (memos_fts, rowid, title, text, tags)
                    VALUES ('delete', old.id, old.title, old.text, old.tags);
            END;
            CREATE TRIGGER memos_fts_update AFTER UPDATE OF title, text, tags ON memos BEGIN
                INSERT INTO memos_fts (memos_fts, rowid, title, text, tags)
                    VALUES ('delete', old.id, old.title, old.text, old.tags);
                INSERT INTO memos_fts (rowid, title, text, tags) VALUES (new.id, new.title, new.text, new.tags);
            END;
            """),
        // Identities that survive export and import (see `Migration(_:addingUIDTo:)`).
        Migration("notes.3-todo-uids", addingUIDTo: "todos"),
        Migration("notes.4-memo-uids", addingUIDTo: "memos"),
        Migration("notes.5-todo-uid-trigger-dropped", droppingUIDTriggerOf: "todos"),
        Migration("notes.6-memo-uid-trigger-dropped", droppingUIDTriggerOf: "memos"),
        // Indexes that answer queries of any length (see `Migration(_:searchIndexOf:…)`).
        Migration("notes.7-todo-search-by-characters", searchIndexOf: "todos", body: "note"),
        Migration("notes.8-memo-search-by-characters", searchIndexOf: "memos", body: "text"),
        // `todo list` in its default order straight from an index, so its first line
        // comes at once: the ORDER BY of `TodoStore.forEachTodo`, term for term.
        Migration("notes.9-open-todos-in-due-order", sql: """
            CREATE INDEX todos_open_in_due_order ON todos (due_at IS NULL, due_at, priority IS NULL, priority DESC, id)
                WHERE done_at IS NULL;
            """),
        // When `memoapp remind` tells about a to-do besides its due time
        // (`todo add --remind`); NULL for none. Seconds since 1970, as `due_at`.
        // The index lets the watcher read only the reminders near now.
        Migration("notes.10-todo-remind", sql: """
            ALTER TABLE todos ADD COLUMN remind_at REAL;
            CREATE INDEX todos_by_remind ON todos (remind_at) WHERE remind_at IS NOT NULL;
            """),
        // Recurring to-dos (`RepeatRule`): all four set or all four NULL. The
        // CHECKs keep a hand-written row from holding a rule the store could
        // not read back.
        Migration("notes.11-todo-repeat", sql: """
            ALTER TABLE todos ADD COLUMN repeat_every INTEGER CHECK (repeat_every BETWEEN 1 AND 999);
            ALTER TABLE todos ADD COLUMN repeat_unit TEXT
                CHECK (repeat_unit IN ('day', 'week', 'month', 'year', 'weekday'));
            ALTER TABLE todos ADD COLUMN repeat_from TEXT CHECK (repeat_from IN ('due', 'done'));
            ALTER TABLE todos ADD COLUMN repeat_day INTEGER CHECK (repeat_day BETWEEN 1 AND 31);
            """),
        // Each item's revision (see `Migration(_:addingRevisionTo:)`).
        Migration("notes.12-todo-revisions", addingRevisionTo: "todos"),
        Migration("notes.13-memo-revisions", addingRevisionTo: "memos"),
        // A conflict copy made by sync names the memo it is a copy of.
        Migration("notes.14-memo-conflict-copies", sql: "ALTER TABLE memos ADD COLUMN conflict_of TEXT;"),
    ]
}

extension Migration {
    /// A step that replaces the trigram index of `table` with one made by
    /// `SearchTokenizer`, built from the rows already there and merged into
    /// one segment (https://www.sqlite.org/fts5.html#the_optimize_command):
    /// built in one go, it would leave many segments, whose merging the next
    /// writes would pay for a few pages at a time, and every search reads
    /// each segment. Then the triggers that keep it in step. The update trigger skips writes that leave the
    /// three indexed columns as they were (marking done, pinning, changing a
    /// due date). Released steps never change: this SQL is frozen, and so is
    /// the tokenizer it names.
    init(_ name: String, searchIndexOf table: String, body: String) {
        // Put together when the step runs: every start builds the migration
        // list, and most never apply this step.
        self.init(name) { try $0.executeScript(Migration.searchIndexSQL(table: table, body: body)) }
    }

    private static func searchIndexSQL(table: String, body: String) -> String {
        let columns = "title, \(body), tags"
        func values(_ row: String) -> String { "\(row).title, \(row).\(body), \(row).tags" }
        let index = "\(table)_search"
        let insert = "INSERT INTO \(index) (rowid, \(columns)) VALUES (new.id, \(values("new")));"
        let delete = "INSERT INTO \(index) (\(index), rowid, \(columns)) VALUES ('delete', old.id, \(values("old")));"
        return """
            DROP TRIGGER \(table)_fts_insert;
            DROP TRIGGER \(table)_fts_delete;
            DROP TRIGGER \(table)_fts_update;
            DROP TABLE \(table)_fts;
            DROP INDEX \(table)_with_nul;
            CREATE VIRTUAL TABLE \(index) USING fts5(
                \(columns), content = '\(table)', content_rowid = 'id', columnsize = 0, detail = none,
                tokenize = 'memoapp_ngram_1');
            INSERT INTO \(index) (\(index)) VALUES ('rebuild');
            INSERT INTO \(index) (\(index)) VALUES ('optimize');
            CREATE TRIGGER \(index)_insert AFTER INSERT ON \(table) BEGIN
                \(insert)
            END;
            CREATE TRIGGER \(index)_delete AFTER DELETE ON \(table) BEGIN
                \(delete)
            END;
            CREATE TRIGGER \(index)_update AFTER UPDATE OF \(columns) ON \(table)
            WHEN old.title IS NOT new.title OR old.\(body) IS NOT new.\(body) OR old.tags IS NOT new.tags BEGIN
                \(delete)
                \(insert)
            END;
            """
    }
}
