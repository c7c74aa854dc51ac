import CommandLineKit
import MemoCore
import MemoKit

/// Everything a command body needs from the outside world: the language, the
/// output mode, the streams, the data home and its database, the clock.
public final class CommandContext {
    public let language: Language
    public let isJSON: Bool
    public let isColorEnabled: Bool
    public let environment: [String: String]
    public let clock: WallClock
    public let streams: StandardStreams
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
    /// The status the process exits with when the body returns normally; a body
    /// that reports problems without failing (verify, doctor) sets it.
    public var exitStatus: Int32 = 0

    private var pendingOutput = ""

    init(globals: GlobalOptions, environment: [String: String], streams: StandardStreams, clock: WallClock) {
        self.language = Language.resolve(explicit: globals.language, environment: environment)
        self.isJSON = globals.isJSON
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        self.isColorEnabled = streams.isOutputTerminal && !noColor && !globals.isColorDisabled
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

    /// Sends a file written to `-` to stdout, after any text already buffered.
    public func write(contentsOf file: ScratchFile) throws {
        flush()
        try file.forEachChunk { streams.writeOutput(bytes: $0) }
        streams.flushOutput()
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
