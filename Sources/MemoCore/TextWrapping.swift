/// Text broken into lines that fit a width, for the pager and help.
public enum TextWrapping {
    /// `text` broken at spaces into lines of at most `width` display columns
    /// (Hangul counts two); a word wider than a line is broken where it must.
    /// Line breaks in `text` are kept, and so are runs of spaces inside a
    /// line (`[s] Skip   [q] Quit`); the spaces where a line is broken go.
    /// A width under 1 counts as 1.
    public static func lines(_ text: String, width: Int) -> [String] {
        let width = max(1, width)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for (gap, word) in words(of: paragraph) {
                var word = word
                var wordWidth = DisplayWidth.of(String(word))
                if lineWidth > 0 && lineWidth + gap + wordWidth <= width {
                    line += String(repeating: " ", count: gap) + word
                    lineWidth += gap + wordWidth
                    continue
                }
                if lineWidth > 0 { lines.append(line) }
                // A word longer than the line: as much as fits, then the rest.
                while wordWidth > width {
                    var head = ""
                    var headWidth = 0
                    for character in word {
                        let characterWidth = DisplayWidth.of(character)
                        if headWidth + characterWidth > width && headWidth > 0 { break }
                        head.append(character)
                        headWidth += characterWidth
                    }
                    lines.append(head)
                    word = word.dropFirst(head.count)
                    wordWidth -= headWidth
                }
                line = String(word)
                lineWidth = wordWidth
            }
            lines.append(line)
        }
        return lines
    }

    /// The words of `paragraph`, each with the number of spaces before it.
    private static func words(of paragraph: Substring) -> [(gap: Int, word: Substring)] {
        var result: [(Int, Substring)] = []
        var index = paragraph.startIndex
        while index < paragraph.endIndex {
            let wordStart = paragraph[index...].firstIndex { $0 != " " } ?? paragraph.endIndex
            let gap = paragraph.distance(from: index, to: wordStart)
            guard wordStart < paragraph.endIndex else { break }
            let wordEnd = paragraph[wordStart...].firstIndex(of: " ") ?? paragraph.endIndex
            result.append((gap, paragraph[wordStart..<wordEnd]))
            index = wordEnd
        }
        return result
    }
}
