import MemoCore

/// The command line's words for the hints feature modules attach to their
/// errors: the flag or the command that gets past the failure.
enum CommandHints {
    static func text(for hint: MemoError.Hint) -> Localized? {
        nil
    }
}
