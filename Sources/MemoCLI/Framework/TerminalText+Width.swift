import MemoCore

/// How much room text takes on a terminal, and text made to fit a column.
/// The measuring itself is `DisplayWidth`'s, the one rule help, tables, the
/// timer list and the pager share.
extension TerminalText {
    /// Columns a text takes on a terminal (see `DisplayWidth`).
    public static func displayWidth(_ text: String) -> Int { DisplayWidth.of(text) }

    /// Columns one user-perceived character takes (see `DisplayWidth`).
    public static func displayWidth(of character: Character) -> Int { DisplayWidth.of(character) }

    /// The text cut to at most `width` columns, ending in `…` when something
    /// was cut. Codes stay (a colour is still turned off); a wide character
    /// that would straddle the edge goes whole.
    public func truncated(toWidth width: Int) -> TerminalText {
        guard displayWidth > width else { return self }
        let room = max(0, width - 1)
        var out = TerminalText()
        var used = 0
        var isCut = false
        for piece in pieces {
            switch piece {
            case let .code(code):
                out += TerminalText(code)
            case let .words(text), let .line(text):
                guard !isCut else { continue }
                // Measured as shown: a control character takes its picture's room.
                let shown = TerminalText.visible(text, keepingLineBreaks: false)
                var kept = ""
                for character in shown {
                    let characterWidth = TerminalText.displayWidth(of: character)
                    if used + characterWidth > room {
                        isCut = true
                        break
                    }
                    kept.append(character)
                    used += characterWidth
                }
                out += TerminalText(line: kept)
                if isCut { out += TerminalText(width > 0 ? "…" : "") }
            }
        }
        return out
    }

    /// The text with spaces added to fill `width` columns, on the right
    /// (`.left`) or the left (`.right`). Wider text is returned as it is.
    public func padded(toWidth width: Int, alignment: TextAlignment = .left) -> TerminalText {
        let missing = width - displayWidth
        guard missing > 0 else { return self }
        let spaces = TerminalText(String(repeating: " ", count: missing))
        return alignment == .left ? self + spaces : spaces + self
    }
}

/// Which side of a column text keeps to.
public enum TextAlignment: Sendable {
    case left, right
}
