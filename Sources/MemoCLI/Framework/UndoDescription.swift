import MemoCore

/// How the undo history names a change made from the command line: the
/// command as typed, without the global options that do not say what it did
/// (`todo rm 3 4`, `memo add 'weekly notes'`).
enum UndoDescription {
    /// The longest description kept: a memo's text typed as arguments can be
    /// long, and the list shows one line per step.
    static let maximumLength = 200

    static func of(_ arguments: [String]) -> String {
        var words: [String] = []
        var index = 0
        var isAfterSeparator = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if !isAfterSeparator {
                if argument == "--" { isAfterSeparator = true; continue }
                if ["--json", "--no-color"].contains(argument) { continue }
                if ["--home", "--lang"].contains(argument) { index += 1; continue }
                if ["--home=", "--lang=", "--color="].contains(where: argument.hasPrefix) { continue }
                if argument == "--color" { index += 1; continue }
            }
            words.append(ShellText.quoted(argument))
        }
        let text = words.joined(separator: " ")
        return text.count <= maximumLength ? text : String(text.prefix(maximumLength - 1)) + "…"
    }
}
