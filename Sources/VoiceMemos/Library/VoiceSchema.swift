import SQLite

extension VoiceStore {
    /// The module's tables, in order. The peaks live in their own table so
    /// that listing memos never reads them.
    public static let migrations: [Migration] = [
        Migration("voice.1-create", sql: """
            CREATE TABLE voice_memos (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                title TEXT NOT NULL,
                original_name TEXT NOT NULL,
                file_name TEXT NOT NULL UNIQUE,
                container TEXT NOT NULL,
                encoding TEXT NOT NULL,
                format_code INTEGER NOT NULL,
                sample_rate INTEGER NOT NULL CHECK (sample_rate > 0),
                channels INTEGER NOT NULL CHECK (channels > 0),
                frames INTEGER NOT NULL CHECK (frames > 0),
                duration REAL NOT NULL,
                size INTEGER NOT NULL,
                peak_level REAL NOT NULL,
                checksum TEXT NOT NULL,
                imported_at REAL NOT NULL,
                updated_at REAL
            );
            CREATE INDEX voice_memos_checksum ON voice_memos (checksum);
            CREATE TABLE voice_memo_peaks (
                memo_id INTEGER PRIMARY KEY REFERENCES voice_memos (id) ON DELETE CASCADE,
                samples_per_pixel INTEGER NOT NULL CHECK (samples_per_pixel > 0),
                data BLOB NOT NULL
            );
            CREATE TABLE voice_memo_tags (
                memo_id INTEGER NOT NULL REFERENCES voice_memos (id) ON DELETE CASCADE,
                tag TEXT NOT NULL,
                PRIMARY KEY (memo_id, tag)
            ) WITHOUT ROWID;
            CREATE INDEX voice_memo_tags_tag ON voice_memo_tags (tag);
            """),
        // Identities that survive export and import (see `Migration(_:addingUIDTo:)`).
        Migration("voice.2-uids", addingUIDTo: "voice_memos"),
        Migration("voice.3-uid-trigger-dropped", droppingUIDTriggerOf: "voice_memos"),
        // The voice memo's revision (see `Migration(_:addingRevisionTo:)`):
        // a change of its tags counts as its change.
        Migration("voice.4-revisions", addingRevisionTo: "voice_memos"),
    ]
}
