import MemoCore

/// What the importers of text files share: splitting into lines, and errors
/// that name the file and the line as compilers do (`todo.txt:3: …`).
enum ImportText {
    /// The UTF-8 byte-order mark some editors put at the start of a file.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// `bytes` without a leading byte-order mark.
    static func withoutByteOrderMark(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        bytes.starts(with: byteOrderMark) ? bytes.dropFirst(3) : bytes[...]
    }

    /// The lines of a file, without a leading byte-order mark, ended by any of
    /// the three line ends editors write: `\n` (Unix), `\r\n` (Windows) and
    /// `\r` alone (classic Mac OS, and some exports still). A final line end
    /// does not start another line.
    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        let content = withoutByteOrderMark(bytes)
        var lines: [ArraySlice<UInt8>] = []
        var start = content.startIndex
        var index = content.startIndex
        while index < content.endIndex {
            let byte = content[index]
            if byte == 0x0A || byte == 0x0D {
                lines.append(content[start..<index])
                let next = content.index(after: index)
                index = byte == 0x0D && next < content.endIndex && content[next] == 0x0A ? content.index(after: next) : next
                start = index
            } else {
                index = content.index(after: index)
            }
        }
        if start < content.endIndex { lines.append(content[start...]) }
        return lines
    }

    /// Hands `body` each line of a file that `nextPiece` hands over a piece
    /// at a time (nil at its end), split as `lines(of:)` splits the whole: a
    /// file of any size in the memory of its longest line.
    static func forEachLine(from nextPiece: () throws -> ArraySlice<UInt8>?,
                            _ body: (ArraySlice<UInt8>) throws -> Void) throws {
        var line: [UInt8] = []
        var isFirstLine = true
        // A CR ended the last line; an LF right after it ends nothing more.
        var afterCarriageReturn = false
        func emit() throws {
            let content = isFirstLine && line.starts(with: byteOrderMark) ? line.dropFirst(3) : line[...]
            isFirstLine = false
            try body(content)
            line.removeAll(keepingCapacity: true)
        }
        var hasUnendedLine = false
        while let piece = try nextPiece() {
            var start = piece.startIndex
            for index in piece.indices {
                let byte = piece[index]
                guard byte == 0x0A || byte == 0x0D else { continue }
                if byte == 0x0A, afterCarriageReturn, index == start, !hasUnendedLine {
                    // The LF of a CR LF split across pieces, or right after the CR.
                    afterCarriageReturn = false
                    start = piece.index(after: index)
                    continue
                }
                line.append(contentsOf: piece[start..<index])
                try emit()
                hasUnendedLine = false
                afterCarriageReturn = byte == 0x0D
                start = piece.index(after: index)
            }
            if start < piece.endIndex {
                line.append(contentsOf: piece[start...])
                hasUnendedLine = true
                afterCarriageReturn = false
            }
        }
        if hasUnendedLine { try emit() }
    }

    /// A bad-input error about line `number` of `source`.
    static func lineError(_ source: String, _ number: Int, en: String, ko: String) -> MemoError {
        MemoError(.badInput, en: "\(source):\(number): \(en)", ko: "\(source):\(number): \(ko)")
    }
}
