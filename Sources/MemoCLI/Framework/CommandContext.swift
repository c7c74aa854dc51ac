import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// Everything a command body needs from the outside world: the language, the
/// output mode, the streams, the data home and its database, the clock.
///
/// The streams themselves are private: a body writes human text only as
/// `TerminalText` (its control characters shown, memoapp's codes apart) and
/// machine text only as JSON, and every write is checked, so a failed one
/// ends the command.
public final class CommandContext {
    public let language: Language
    public let isJSON: Bool
    public let isColorEnabled: Bool
    public let environment: [String: String]
    public let clock: WallClock
    /// The data home and its database, shared with the application layer's
    /// use cases. `App` calls `checkDataHome()` before any command body runs.
    public var workspace: Workspace {
        guard case let .success(workspace) = workspaceChoice else {
            preconditionFailure("a command body ran before checkDataHome()")
        }
        return workspace
    }
    public var home: DataHome { workspace.home }
    /// The workspace, or why the data home cannot be chosen (an empty
    /// --home or MEMOAPP_HOME, no home folder at all): help and version
    /// answer without one.
    private let workspaceChoice: Result<Workspace, Error>
    /// This command line as the undo history names what it changed.
    public var undoDescription = ""
    /// The status the process exits with when the body returns normally; a body
    /// that reports problems without failing (verify, doctor) sets it.
    public var exitStatus: Int32 = 0

    private let streams: StandardStreams
    /// Stdout's buffer, as bytes: rows are added by copying, not by
    /// appending strings (see `TerminalText.render(into:)`).
    private var pendingOutput: [UInt8] = []

    init(globals: GlobalOptions, environment: [String: String], streams: StandardStreams, clock: WallClock) {
        self.language = Language.resolve(explicit: globals.language, environment: environment)
        self.isJSON = globals.isJSON
        self.isColorEnabled = (globals.color ?? .auto).isColorEnabled(isOutputTerminal: streams.isOutputTerminal,
                                                                       environment: environment)
        self.environment = environment
        self.clock = clock
        self.streams = streams
        self.workspaceChoice = Result {
            Workspace(home: try DataHome.resolve(explicit: globals.home, environment: environment), clock: clock)
        }
    }

    /// Throws why the data home cannot be chosen, if it cannot.
    func checkDataHome() throws {
        _ = try workspaceChoice.get()
    }

    /// Applies `change` through MemoKit's one door, as one step of the undo
    /// history named by the command line as typed.
    @discardableResult
    public func apply<Change: ItemChange>(_ change: Change) throws -> Change.Outcome {
        try workspace.apply(change, origin: .cli, describedAs: undoDescription)
    }

    // MARK: Text

    /// The text in the invocation's language.
    public func text(_ localized: Localized) -> String { localized.text(in: language) }

    /// Picks between an English and a Korean text.
    public func text(en: String, ko: String) -> String { language == .ko ? ko : en }

    /// Picks between an English and a Korean terminal text (one that quotes a
    /// title with `\(line: title)` or holds styling).
    public func text(en: TerminalText, ko: TerminalText) -> TerminalText { language == .ko ? ko : en }

    /// Styling for terminal text; plain when colour is off.
    public var style: TextStyle { TextStyle(isEnabled: isColorEnabled) }

    // MARK: The terminal

    public var isInputTerminal: Bool { streams.isInputTerminal }
    public var isOutputTerminal: Bool { streams.isOutputTerminal }
    public var isErrorTerminal: Bool { streams.isErrorTerminal }
    /// Columns of the terminal, or nil when there is none.
    public var terminalWidth: Int? { streams.terminalWidth }

    /// Columns a list's table may fill, its titles shortened to fit: the
    /// terminal's width when stdout is one (`COLUMNS` if its size cannot be
    /// read); in a pipe `COLUMNS` when the user sets it, else nil, and
    /// nothing is shortened, so `grep` and `wc` see whole titles.
    public var tableWidth: Int? {
        let columns = environment["COLUMNS"].flatMap(Int.init).flatMap { (10...10_000).contains($0) ? $0 : nil }
        return isOutputTerminal ? terminalWidth ?? columns : columns
    }

    /// Standard input to its end.
    public func readAllInput() throws -> [UInt8] { try streams.readAllInput() }

    /// Shows `question` on stderr (after any output so far) and returns the
    /// line typed in answer, or nil at the end of input.
    public func ask(_ question: String) throws -> String? {
        try flush()
        try streams.writeError(TerminalText(line: question).rendered)
        return streams.readLine()
    }

    // MARK: Output

    /// Prints the result: `json` with --json, else `text` (a line break is added
    /// when missing). Call once per command for JSON.
    public func emit(json: @autoclosure () -> JSON, text: @autoclosure () -> TerminalText) throws {
        if isJSON {
            try writeDocument(json().serialized + "\n")
        } else {
            let body = text()
            try write(body.isEmpty || body.endsWithLineBreak ? body : body + "\n")
        }
    }

    /// `emit` with text that holds no styling.
    public func emit(json: @autoclosure () -> JSON, text: @autoclosure () -> String) throws {
        try emit(json: json(), text: TerminalText(text()))
    }

    /// Adds human text to stdout (buffered; flushed at the end or when large).
    public func write(_ text: TerminalText) throws {
        text.render(into: &pendingOutput)
        try flushIfLarge()
    }

    /// Sends a file written to `-` to stdout, after any text already buffered.
    public func write(contentsOf file: ScratchFile) throws {
        try flush()
        try file.forEachChunk { try streams.writeOutput(bytes: $0) }
    }

    /// Adds a document for a program (JSON: an export, peaks; a shell
    /// completion script) to stdout as it is: JSON escapes every control
    /// character itself, and changing a byte would change the data.
    public func writeDocument(_ document: String) throws {
        try buffer(document)
    }

    /// Writes a line to stderr at once, prefixed `memoapp: ` (warnings, progress
    /// notes), shown on one line whatever it quotes.
    public func warn(_ text: String) throws {
        try streams.writeError("memoapp: " + TerminalText(line: text).rendered + "\n")
    }

    /// A failure the command reports itself and still ends in order (an
    /// interrupted wait): the JSON error document with --json, else `warn`.
    public func warn(_ message: String, as kind: ErrorKind) throws {
        if isJSON {
            try streams.writeError(ErrorEnvelope.json(code: kind.code, message: message).serialized + "\n")
        } else {
            try warn(message)
        }
    }

    /// Shows `text` on stderr now, without a prefix or a line break (a progress
    /// line redrawn in place).
    public func writeProgress(_ text: TerminalText) throws {
        try streams.writeError(text.rendered)
    }

    /// Sends buffered text to stdout now (before waiting on the user or the clock).
    public func flush() throws {
        guard !pendingOutput.isEmpty else { return }
        let bytes = pendingOutput
        pendingOutput = []
        try bytes.withUnsafeBytes { try streams.writeOutput(bytes: $0) }
    }

    /// Drops buffered output: on failure with --json, stdout stays empty.
    func discardOutput() {
        pendingOutput = []
    }

    /// Writes `text` to stderr as it is: for the error report, which renders
    /// its own message through the same rule.
    func writeReport(_ text: String) throws {
        try streams.writeError(text)
    }

    // MARK: - Private

    private func buffer(_ text: String) throws {
        pendingOutput.append(contentsOf: text.utf8)
        try flushIfLarge()
    }

    private func flushIfLarge() throws {
        if !isJSON, pendingOutput.count > 1 << 16 { try flush() }
    }
}
