import MemoCore

/// A command line that does not fit the command's declaration. Reported with
/// the usage line and a pointer to `--help`.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public let message: Localized
    /// The command whose usage to show, e.g. ["todo", "add"].
    public let path: [String]

    public init(_ message: Localized, path: [String]) {
        self.message = message
        self.path = path
    }

    public var description: String { message.en }
}
