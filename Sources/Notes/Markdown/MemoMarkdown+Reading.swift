import MemoCore

extension MemoMarkdown {
    /// The memo of a file `memo export --format md` wrote (or one written
    /// like it), or nil when `bytes` does not start with a front matter block
    /// holding a `uid` key: such a file is not memoapp's, and is read as text.
    /// `source` names the file in errors, which name the line too.
    /// - Throws: `.badInput` for a block with a `uid` that memoapp cannot take
    ///   whole: an unknown or repeated key, a malformed value, no `created`,
    ///   or no text after the block.
    public static func memo(in bytes: ArraySlice<UInt8>, source: String) throws -> ImportedMemo? {
        guard let block = FrontMatter(bytes), block.fields.contains(where: { $0.key == "uid" }) else { return nil }
        var values: [String: FrontMatter.Field] = [:]
        for field in block.fields {
            guard keys.contains(field.key) else {
                throw ImportText.lineError(source, field.line, en: "unknown front matter key '\(field.key)'; known: "
                                           + keys.joined(separator: ", "),
                                           ko: "알 수 없는 앞머리 키 '\(field.key)'; 가능한 키: " + keys.joined(separator: ", "))
            }
            guard values.updateValue(field, forKey: field.key) == nil else {
                throw ImportText.lineError(source, field.line, en: "'\(field.key)' is given twice", ko: "'\(field.key)'이(가) 두 번 있습니다")
            }
        }
        func value<T>(_ key: String, _ read: (String) throws -> T?) throws -> T? {
            guard let field = values[key] else { return nil }
            do {
                if let value = try read(field.value) { return value }
            } catch let error as MemoError where error.kind == .usage || error.kind == .badInput {
                throw ImportText.lineError(source, field.line, en: "\(key): " + error.message.en, ko: "\(key): " + error.message.ko)
            }
            throw ImportText.lineError(source, field.line, en: "\(key): '\(field.value)' is not \(FrontMatter.expected[key, default: ""])",
                                       ko: "\(key): '\(field.value)'은(는) 올바른 값이 아닙니다")
        }
        guard let created = try value("created", FrontMatter.time) else {
            throw ImportText.lineError(source, 1, en: "the front matter has a uid but no 'created' time",
                                       ko: "앞머리에 uid가 있지만 'created' 시각이 없습니다")
        }
        let text = String(decoding: bytes[block.end...], as: UTF8.self)
        guard text.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0 != "\0" }) else {
            throw MemoError(.badInput, en: "\(source): the memo's text after the front matter is empty",
                            ko: "\(source): 앞머리 뒤의 메모 내용이 비어 있습니다")
        }
        return ImportedMemo(uid: try value("uid", FrontMatter.uid) ?? "", title: try value("title", FrontMatter.title) ?? nil,
                            text: text, tags: try value("tags", FrontMatter.tags) ?? [], createdAt: created,
                            updatedAt: try value("updated", FrontMatter.time) ?? created,
                            isPinned: try value("pinned", FrontMatter.bool) ?? false)
    }
}

/// The `---` block at the start of a file: its `key: value` lines, and where
/// the text after it starts. Line ends may be `\n` or `\r\n`; the text after
/// the block is taken byte for byte, whatever its own line ends.
struct FrontMatter {
    struct Field {
        let key: String
        let value: String
        /// 1-based, in the file.
        let line: Int
    }

    var fields: [Field] = []
    /// The index of the first byte after the closing `---` line.
    var end: Int

    /// What a value should have been, for messages.
    static let expected = ["title": "a quoted string or null", "tags": "a list such as [\"a\", \"b\"]",
                           "created": "an RFC 3339 time", "updated": "an RFC 3339 time", "pinned": "true or false",
                           "uid": "a UUID"]

    /// nil when `bytes` does not start with `---` on a line of its own, or the
    /// block is never closed, or one of its lines is not `key: value`.
    init?(_ bytes: ArraySlice<UInt8>) {
        var lineStart = bytes.startIndex
        var number = 0
        end = bytes.startIndex
        while lineStart < bytes.endIndex {
            guard let newline = bytes[lineStart...].firstIndex(of: 0x0A) else { return nil }
            var line = bytes[lineStart..<newline]
            if line.last == 0x0D { line = line.dropLast() }
            number += 1
            lineStart = newline + 1
            let text = String(decoding: line, as: UTF8.self)
            if number == 1 {
                guard text == "---" else { return nil }
                continue
            }
            if text == "---" {
                end = lineStart
                return
            }
            if text.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let colon = text.firstIndex(of: ":"),
                  case let key = String(text[..<colon]), !key.isEmpty,
                  key.allSatisfy({ $0.isASCII && ($0.isLowercase || $0 == "_") }) else { return nil }
            let value = text[text.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            fields.append(Field(key: key, value: String(value.reversed().drop { $0 == " " || $0 == "\t" }.reversed()),
                                line: number))
        }
        return nil
    }

    // MARK: Values

    static func time(_ value: String) -> Timestamp? {
        Timestamp(rfc3339: unquoted(value))
    }

    static func bool(_ value: String) -> Bool? {
        switch value {
        case "true": return true
        case "false": return false
        default: return nil
        }
    }

    static func uid(_ value: String) throws -> String? {
        try UUID4.uid(unquoted(value))
    }

    /// `"…"` in JSON's (and YAML's) double-quoted syntax, `'…'` in YAML's
    /// single-quoted one, `null`, `~` or nothing for none, else the text as
    /// it stands. A title is one line.
    static func title(_ value: String) throws -> String?? {
        if value.isEmpty || value == "null" || value == "~" { return .some(nil) }
        guard let title = try plainOrQuoted(value) else { return nil }
        guard !title.hasLineBreak else {
            throw MemoError(.badInput, en: "a memo's title must be one line", ko: "메모 제목은 한 줄이어야 합니다")
        }
        return .some(title)
    }

    /// `["a", "b"]` (JSON) or YAML's flow style, whose items may be plain
    /// (`[a, b]`) or quoted either way (`[home, "#work"]`: YAML needs the
    /// quotes there, or `#work` starts a comment), each tag cleaned by the
    /// tag rules.
    static func tags(_ value: String) throws -> [String]? {
        guard value.first == "[", value.last == "]" else { return nil }
        var tags: [String] = []
        if let parsed = try? JSON.parse(Array(value.utf8)) {
            guard case let .array(items) = parsed else { return nil }
            for item in items {
                guard case let .string(tag) = item else { throw MemoError(.badInput, en: "a tag is a string", ko: "태그는 문자열입니다") }
                tags.append(tag)
            }
        } else if case let inner = value.dropFirst().dropLast(), !inner.allSatisfy({ $0 == " " || $0 == "\t" }) {
            // Tags hold no commas (the tag rules refuse them), so a comma always ends an item.
            for item in inner.split(separator: ",", omittingEmptySubsequences: false) {
                guard let tag = try plainOrQuoted(String(item).trimmingCharacters(" \t")) else { return nil }
                tags.append(tag)
            }
        }
        return try Tags.normalized(tags)
    }

    /// A YAML scalar on one line: `"…"` (JSON's escapes), `'…'` (a quote
    /// written twice), or plain text; nil for a quote left open.
    private static func plainOrQuoted(_ text: String) throws -> String? {
        if text.first == "\"" {
            guard case let .string(value)? = try? JSON.parse(Array(text.utf8)) else { return nil }
            return value
        }
        if text.first == "'" {
            guard text.count >= 2, text.last == "'" else { return nil }
            return String(text.dropFirst().dropLast()).replacingDoubledQuotes()
        }
        return text
    }

    private static func unquoted(_ value: String) -> String {
        for quote in ["\"", "'"] as [Character] where value.count >= 2 && value.first == quote && value.last == quote {
            return String(value.dropFirst().dropLast())
        }
        return value
    }
}

private extension String {
    func trimmingCharacters(_ set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }

    /// YAML's single-quoted style writes a quote as two.
    func replacingDoubledQuotes() -> String {
        var result = ""
        var previousWasQuote = false
        for character in self {
            if character == "'" && previousWasQuote {
                previousWasQuote = false
                continue
            }
            previousWasQuote = character == "'"
            result.append(character)
        }
        return result
    }
}
