import MemoCore
import Onboarding
import SQLite

/// Everything a command body needs from the outside world: the language, the
/// output mode, the streams, the data home and its database, the clock.
public final class CommandContext {
    public let language: Language
    public let isJSON: Bool
    public let isColorEnabled: Bool
    public let environment: [String: String]
    public let clock: WallClock
    public let streams: StandardStreams
    public let home: DataHome
    /// The status the process exits with when the body returns normally; a body
    /// that reports problems without failing (verify, doctor) sets it.
    public var exitStatus: Int32 = 0

    private var openedDatabase: Connection?
    private var pendingOutput = ""

    init(globals: GlobalOptions, environment: [String: String], streams: StandardStreams, clock: WallClock) {
        self.language = Language.resolve(explicit: globals.language, environment: environment)
        self.isJSON = globals.isJSON
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        self.isColorEnabled = streams.isOutputTerminal && !noColor && !globals.isColorDisabled
        self.environment = environment
        self.clock = clock
        self.streams = streams
        self.home = DataHome.resolve(explicit: globals.home, environment: environment)
    }

    // MARK: Text

    /// The text in the invocation's language.
    public func text(_ localized: Localized) -> String { localized.text(in: language) }

    /// Picks between an English and a Korean text.
    public func text(en: String, ko: String) -> String { language == .ko ? ko : en }

    /// Styling for terminal text; plain when colour is off.
    public var style: TextStyle { TextStyle(isEnabled: isColorEnabled) }

    // MARK: Output

    /// Prints the result: `json` with --json, else `text` (a line break is added
    /// when missing). Call once per command for JSON.
    public func emit(json: @autoclosure () -> JSON, text: @autoclosure () -> String) {
        if isJSON {
            pendingOutput += json().serialized + "\n"
        } else {
            let body = text()
            write(body.hasSuffix("\n") || body.isEmpty ? body : body + "\n")
        }
    }

    /// Adds human text to stdout (buffered; flushed at the end or when large).
    public func write(_ text: String) {
        pendingOutput += text
        if !isJSON, pendingOutput.utf8.count > 1 << 16 { flush() }
    }

    /// Writes a line to stderr at once, prefixed `memoapp: ` (warnings, progress notes).
    public func warn(_ text: String) {
        streams.writeError("memoapp: " + text + "\n")
    }

    /// Sends buffered text to stdout now (before waiting on the user or the clock).
    public func flush() {
        if !pendingOutput.isEmpty {
            streams.writeOutput(pendingOutput)
            pendingOutput = ""
        }
        streams.flushOutput()
    }

    /// Drops buffered output: on failure with --json, stdout stays empty.
    func discardOutput() {
        pendingOutput = ""
    }

    // MARK: Storage

    /// The database, opened once per invocation with every module's migrations
    /// applied. Creates the data home (0700) and the database file (0600).
    public func database() throws -> Connection {
        if let openedDatabase { return openedDatabase }
        try home.create()
        try home.createDatabaseFile()
        let connection = try Connection(path: home.databasePath, configuration: .memoapp)
        try Schema.migrator.apply(to: connection)
        openedDatabase = connection
        return connection
    }

    /// Closes the database early (before a long wait, so no lock is held).
    public func closeDatabase() {
        openedDatabase = nil
    }

    /// Whether onboarding is completed, without creating anything when the
    /// data home does not exist yet.
    func isOnboardingCompleted() throws -> Bool {
        guard home.hasDatabase else { return false }
        return try OnboardingStore(connection: database()).state().isCompleted
    }
}

/// ANSI styling that turns itself off when colour is not wanted.
public struct TextStyle: Sendable {
    public let isEnabled: Bool

    public func bold(_ text: String) -> String { wrap(text, "1") }
    public func dim(_ text: String) -> String { wrap(text, "2") }
    public func red(_ text: String) -> String { wrap(text, "31") }
    public func green(_ text: String) -> String { wrap(text, "32") }
    public func yellow(_ text: String) -> String { wrap(text, "33") }
    public func cyan(_ text: String) -> String { wrap(text, "36") }

    private func wrap(_ text: String, _ code: String) -> String {
        isEnabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
