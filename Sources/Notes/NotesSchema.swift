import SQLite

/// The tables of to-dos and memos, and their search indexes.
///
/// - `todos`, `memos`: one row each. Ids are `AUTOINCREMENT`, so an id is never
///   given again after its row is removed. Times are REAL seconds since 1970.
/// - `todo_tags`, `memo_tags`: one row per tag, for exact (case-insensitive)
///   `--tag` filtering through an index. The `tags` column of the item holds
///   the same tags joined by spaces, written by the store in the same
///   transaction; it is what search indexes and what lists read.
/// - `todos_fts`, `memos_fts`: FTS5 external-content tables with the trigram
///   tokenizer (https://www.sqlite.org/fts5.html#the_trigram_tokenizer), kept
///   in step with their content table by triggers, so every write updates the
///   index in its own transaction.
/// - `has_nul`: whether the title or text holds a NUL character, computed by
///   SQLite on write, with a partial index of those rows. The trigram tokenizer
///   and `LIKE` both stop reading at a NUL, so search also checks these rows
///   the slow, exact way (see `NoteSearch`).
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
    ]
}
