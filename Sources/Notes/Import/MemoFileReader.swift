import MemoCore

/// Reads a Markdown or plain text file as one memo.
///
/// The text is the file exactly as written (a leading byte-order mark
/// dropped), heading included, so the memo reads as the file did. The title is
/// the file's first heading when its first non-blank line is one: an ATX
/// heading (`# Title`, any level, closing `#`s dropped) or a setext heading
/// (`Title` over a line of `=` or `-`), after a front matter block if there
/// is one (whose fields are not read). Otherwise the memo has no title and
/// lists show its first line, as for any memo.
///
/// The uid is derived from the text, so importing the same file again (or a
/// copy under another name) adds nothing.
///
/// A file `memo export --format md` wrote (its front matter has a `uid`) is
/// read by `MemoMarkdown` instead: the memo comes back as it was exported,
/// its uid, title, tags, times and pin from the front matter and its text
/// from what follows, byte for byte.
public enum MemoFileReader {
    /// The namespace of derived uids of memo files.
    public static let uidNamespace = "memoapp memo file"

    /// The memo of the file `source` (its name for messages) holding `bytes`,
    /// last changed at `modifiedAt`; a bad-input error when it is not UTF-8
    /// (naming the first bad line) or holds nothing but white space.
    public static func memo(in bytes: [UInt8], source: String, modifiedAt: Timestamp?) throws -> ImportedMemo {
        let content = ImportText.withoutByteOrderMark(bytes)
        guard let text = String(validating: content, as: UTF8.self) else {
            let number = (ImportText.lines(of: bytes).firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
            throw ImportText.lineError(source, number, en: "not UTF-8 text", ko: "UTF-8 텍스트가 아닙니다")
        }
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0 != "\0" }) else {
            throw MemoError(.badInput, en: "\(source): the file is empty", ko: "\(source): 파일이 비어 있습니다")
        }
        if let exported = try MemoMarkdown.memo(in: content, source: source) { return exported }
        return ImportedMemo(uid: DerivedUID.make(namespace: uidNamespace, content: content), title: title(of: text),
                            text: text, createdAt: modifiedAt)
    }

    /// The first heading of `text` when its first non-blank line is one.
    public static func title(of text: String) -> String? {
        // Every line end counts ("\r\n" is one Character in Swift; a file may
        // end its lines with CR alone), so a title is always one line.
        var all = text.split(omittingEmptySubsequences: false,
                             whereSeparator: { String($0).hasLineBreak })[...]
        // A front matter block (`---` on the first line to `---` or `...`, as
        // Jekyll, Hugo and Obsidian write) comes before the heading; it stays
        // in the text but is not read.
        if all.first == "---", let end = all.dropFirst().firstIndex(where: { $0 == "---" || $0 == "..." }) {
            all = all[(end + 1)...]
        }
        var lines = all.lazy
            .drop { $0.allSatisfy { $0 == " " || $0 == "\t" } }
            .makeIterator()
        guard let first = lines.next() else { return nil }
        if let heading = atxHeading(first) { return heading }
        if let next = lines.next(), isSetextUnderline(next), isParagraphStart(first) {
            return nonEmpty(first)
        }
        return nil
    }

    // MARK: - Private

    /// `## Title ##` → `Title` (https://spec.commonmark.org/0.31.2/#atx-headings).
    private static func atxHeading(_ line: Substring) -> String? {
        guard indentation(of: line) < 4 else { return nil }
        let trimmed = line.drop { $0 == " " }
        let marks = trimmed.prefix { $0 == "#" }
        guard (1...6).contains(marks.count) else { return nil }
        var rest = trimmed.dropFirst(marks.count)
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
        rest = rest.drop { $0 == " " || $0 == "\t" }
        while let last = rest.last, last == " " || last == "\t" { rest.removeLast() }
        // A closing run of #s counts only after a space (or as the whole rest).
        let closing = rest.reversed().prefix { $0 == "#" }.count
        if closing > 0 {
            let before = rest.dropLast(closing)
            if before.isEmpty || before.last == " " || before.last == "\t" { rest = before }
        }
        return nonEmpty(rest)
    }

    /// A line of only `=` or only `-`, up to three spaces in, spaces after.
    private static func isSetextUnderline(_ line: Substring) -> Bool {
        guard indentation(of: line) < 4 else { return false }
        var body = line.drop { $0 == " " }
        while let last = body.last, last == " " || last == "\t" { body.removeLast() }
        guard let mark = body.first, mark == "=" || mark == "-" else { return false }
        return body.allSatisfy { $0 == mark }
    }

    /// Whether a line can be the text of a setext heading: not indented code,
    /// not itself an underline, not a list item, quote or code fence.
    private static func isParagraphStart(_ line: Substring) -> Bool {
        guard indentation(of: line) < 4, !isSetextUnderline(line) else { return false }
        let body = line.drop { $0 == " " }
        let blockStarts = ["> ", "- ", "* ", "+ ", "```", "~~~"]
        return !blockStarts.contains { body.hasPrefix($0) } && body != ">"
    }

    private static func indentation(of line: Substring) -> Int {
        line.prefix { $0 == " " }.count
    }

    private static func nonEmpty(_ text: Substring) -> String? {
        let trimmed = text.drop { $0.isWhitespace }
        guard let last = trimmed.lastIndex(where: { !$0.isWhitespace }) else { return nil }
        return String(trimmed[...last])
    }
}
