import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// One front end's use of one data home, for as long as it runs: where the
/// home is, its database (opened and migrated on first use, then kept), the
/// clock, and the feature stores over that database.
///
/// A single-threaded front end (the command line) keeps one; every use case
/// takes what it needs from it.
public final class Workspace {
    public let home: DataHome
    public let clock: WallClock
    private var openedDatabase: Connection?

    public init(home: DataHome, clock: WallClock = SystemWallClock()) {
        self.home = home
        self.clock = clock
    }

    /// A workspace over a connection someone else opened and holds (a
    /// server's pooled reader or writer, for the span of one request), so
    /// the use cases run on it unchanged.
    public init(home: DataHome, connection: Connection, clock: WallClock = SystemWallClock()) {
        self.home = home
        self.clock = clock
        self.openedDatabase = connection
    }

    /// The database, opened once with every module's migrations applied.
    /// Creates the data home (0700) and the database file (0600).
    public func database() throws -> Connection {
        if let openedDatabase { return openedDatabase }
        let connection = try MemoDatabase.open(in: home)
        openedDatabase = connection
        return connection
    }

    /// The process's local time zone; `TZ` decides, as everywhere on Linux.
    public var calendar: SystemLocalCalendar { SystemLocalCalendar() }

    public func todoStore() throws -> TodoStore {
        TodoStore(connection: try database(), clock: clock, calendar: calendar)
    }

    public func memoStore() throws -> MemoStore {
        MemoStore(connection: try database(), clock: clock)
    }

    public func voiceStore() throws -> VoiceStore {
        VoiceStore(connection: try database(), directory: home.voiceDirectory, clock: clock)
    }

    public func timerStore() throws -> TimerStore {
        TimerStore(connection: try database(), clock: Workspace.timerClock)
    }

    /// One for the process: making one reads the kernel's boot id from
    /// /proc (an open, a read and a close), which cannot change while the
    /// process lives, and the server made one for every to-do it answered.
    private static let timerClock = SystemTimerClock()

    /// The undo history of the database (`UndoHistory.defaultLimit` steps).
    public func undoHistory() throws -> UndoHistory {
        UndoHistory(connection: try database(), voiceDirectory: home.voiceDirectory, clock: clock)
    }

    public func onboardingStore() throws -> OnboardingStore {
        OnboardingStore(connection: try database())
    }
}
