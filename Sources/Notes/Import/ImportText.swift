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

    /// The lines of a file, without their `\n` or `\r\n` and without a leading
    /// byte-order mark. A final line break does not start another line.
    static func lines(of bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = withoutByteOrderMark(bytes).split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.last == 0x0D ? $0.dropLast() : $0 }
    }

    /// A bad-input error about line `number` of `source`.
    static func lineError(_ source: String, _ number: Int, en: String, ko: String) -> MemoError {
        MemoError(.badInput, en: "\(source):\(number): \(en)", ko: "\(source):\(number): \(ko)")
    }
}
