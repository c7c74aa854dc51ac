import SQLite

extension TimerStore {
    /// The timers tables, in order. Names are permanent once released.
    ///
    /// A timer is one `timers` row plus its running spans and laps. The CHECKs
    /// and the partial unique index keep out the states no sequence of
    /// commands can produce, as a second line behind the pure state machine.
    public static let migrations: [Migration] = [
        Migration("timers.1-create", sql: """
            CREATE TABLE timers (
                id INTEGER PRIMARY KEY,
                kind TEXT NOT NULL CHECK (kind IN ('countdown', 'stopwatch')),
                label TEXT,
                duration REAL,
                state TEXT NOT NULL
                    CHECK (state IN ('running', 'paused', 'finished', 'cancelled', 'stopped')),
                created_at REAL NOT NULL,
                ended_at REAL,
                CHECK ((kind = 'countdown') = (duration IS NOT NULL AND duration > 0)),
                CHECK ((state IN ('running', 'paused')) = (ended_at IS NULL)),
                CHECK (state <> 'finished' OR kind = 'countdown'),
                CHECK (state <> 'stopped' OR kind = 'stopwatch')
            );
            CREATE INDEX timers_by_state ON timers (state, id);

            -- One row per stretch of running time. A reading is three columns:
            -- wall clock, boot clock (CLOCK_BOOTTIME) and the boot id.
            CREATE TABLE timer_spans (
                timer_id INTEGER NOT NULL REFERENCES timers (id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                start_wall REAL NOT NULL,
                start_boot REAL NOT NULL,
                start_boot_id TEXT NOT NULL,
                end_wall REAL,
                end_boot REAL,
                end_boot_id TEXT,
                PRIMARY KEY (timer_id, position),
                CHECK ((end_wall IS NULL) = (end_boot IS NULL) AND (end_boot IS NULL) = (end_boot_id IS NULL))
            ) WITHOUT ROWID;
            -- At most one open span per timer, whatever a buggy writer tries.
            CREATE UNIQUE INDEX timer_spans_one_open ON timer_spans (timer_id) WHERE end_wall IS NULL;

            CREATE TABLE timer_laps (
                timer_id INTEGER NOT NULL REFERENCES timers (id) ON DELETE CASCADE,
                number INTEGER NOT NULL CHECK (number >= 1),
                elapsed REAL NOT NULL CHECK (elapsed >= 0),
                is_estimated INTEGER NOT NULL CHECK (is_estimated IN (0, 1)),
                recorded_at REAL NOT NULL,
                PRIMARY KEY (timer_id, number)
            ) WITHOUT ROWID;
            """),
        // Identities that survive export and import (see `Migration(_:addingUIDTo:)`).
        Migration("timers.2-uids", addingUIDTo: "timers"),
        Migration("timers.3-uid-trigger-dropped", droppingUIDTriggerOf: "timers"),
        // `todo_id`: the to-do the timer's time is spent on (`timer start --todo`);
        // a plain id, no foreign key, since the to-dos are another module's
        // table (MemoKit's `FeatureLinks` clears it when the to-do goes).
        // `seen_at`: when a finished countdown was first shown to the user;
        // until then the main screen keeps it.
        Migration("timers.4-todo-and-seen", sql: """
            ALTER TABLE timers ADD COLUMN todo_id INTEGER;
            ALTER TABLE timers ADD COLUMN seen_at REAL;
            CREATE INDEX timers_by_todo ON timers (todo_id) WHERE todo_id IS NOT NULL;
            -- Timers that ended before this step were seen the only way there
            -- was; they must not all come back to the main screen at once.
            UPDATE timers SET seen_at = ended_at WHERE ended_at IS NOT NULL;
            """),
        // The timer's revision (see `Migration(_:addingRevisionTo:)`): its
        // laps and spans are parts of it and count as its changes.
        Migration("timers.5-revisions", addingRevisionTo: "timers"),
    ]
}
