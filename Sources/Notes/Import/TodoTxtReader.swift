import MemoCore

/// Reads a todo.txt file (https://github.com/todotxt/todo.txt, the format
/// `todo.sh` writes) into to-dos, all or nothing: the first malformed line is a
/// bad-input error naming the file and line, and nothing is returned.
///
/// One task a line; blank lines are skipped. A line may start with:
/// - `x ` (done), then the completion date, then the creation date, both optional;
/// - or `(A) ` (priority), then the creation date.
///
/// Priority: A is high, B medium, C to Z low (a letter after C is kept in the
/// note as `pri:D`, since low loses it). `pri:A` sets it on a done task,
/// whose priority `todo.sh do` removes. Dates are `YYYY-MM-DD` in the local
/// calendar; a word of that shape that is no date (2026-13-45) is an error.
///
/// The rest is the title, as written except for `key:value` words:
/// `due:YYYY-MM-DD` is the due date (date only), `pri:X` as above, and any
/// other pair goes to the note, a line each. `rec:1w` (counted from the day
/// it is done) and `rec:+1w` (from the due date) make an open task with a due
/// date a recurring to-do (`RepeatRule(todoTxt:)`); units d, w, m, y, and 1b.
/// `+project` and `@context` words
/// stay in the title as written (they are often part of the sentence, and
/// stay searchable) and also become tags without their sign, `GarageSale` and
/// `phone`, so that `todo list --tag phone` finds them as it finds a tag given
/// with `--tag`: memoapp has one kind of tag. Which sign a word had is still
/// in the title; `+home` and `@home` become the one tag `home`.
public struct TodoTxtReader: Sendable {
    /// The calendar dates are read in.
    public let calendar: any LocalCalendar

    /// A reader of dates in `calendar`.
    public init(calendar: any LocalCalendar) {
        self.calendar = calendar
    }

    /// The namespace of derived uids of todo.txt lines.
    public static let uidNamespace = "memoapp todo.txt line"

    /// The to-dos of the file `source` (its name for messages) holding `bytes`.
    public func todos(in bytes: [UInt8], source: String) throws -> [ImportedTodo] {
        var todos: [ImportedTodo] = []
        var pieces = [bytes[...]].makeIterator()
        try forEachTodo(from: { pieces.next() }, source: source) { todos.append($0) }
        return todos
    }

    /// Hands `body` each to-do of the file `source` as its line is read, the
    /// file coming a piece at a time from `nextPiece` (nil at its end): a
    /// file of a million lines is never held. The first malformed line throws
    /// after the to-dos before it were handed on, so a caller that stores
    /// them does so in a transaction it rolls back.
    public func forEachTodo(from nextPiece: () throws -> ArraySlice<UInt8>?, source: String,
                            _ body: (ImportedTodo) throws -> Void) throws {
        // Equal lines are different tasks (a chore done twice); the count of
        // earlier equal lines goes into the uid so each keeps its own. A line
        // is remembered by a digest of it, not its text.
        var occurrences: [UIDKey: Int] = [:]
        var number = 0
        try ImportText.forEachLine(from: nextPiece) { line in
            number += 1
            guard let text = String(validating: line, as: UTF8.self) else {
                throw ImportText.lineError(source, number, en: "not UTF-8 text", ko: "UTF-8 텍스트가 아닙니다")
            }
            let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { return }
            let normalized = words.joined(separator: " ")
            let digest = UIDKey(DerivedUID.make(namespace: TodoTxtReader.uidNamespace, content: Array(normalized.utf8)))
            let seen = occurrences[digest, default: 0]
            occurrences[digest] = seen + 1
            let uid = DerivedUID.make(namespace: TodoTxtReader.uidNamespace,
                                      content: Array((normalized + "\n\(seen)").utf8))
            do {
                try body(try todo(words: words, uid: uid))
            } catch let failure as LineFailure {
                throw ImportText.lineError(source, number, en: failure.message.en, ko: failure.message.ko)
            }
        }
    }

    // MARK: - Private

    /// A problem with one line; `todos(in:source:)` adds the file and line.
    private struct LineFailure: Error {
        let message: Localized
        init(en: String, ko: String) { message = Localized(en: en, ko: ko) }
    }

    private func todo(words: [String], uid: String) throws -> ImportedTodo {
        var rest = words[...]
        var todo = ImportedTodo(uid: uid, title: "")
        var letter: Character?
        if rest.first == "x" {
            todo.isDone = true
            rest.removeFirst()
            if let completed = try date(rest.first, what: Localized(en: "completion date", ko: "완료 날짜")) {
                todo.doneAt = calendar.startOfDay(completed)
                rest.removeFirst()
                if let created = try date(rest.first, what: Localized(en: "creation date", ko: "만든 날짜")) {
                    todo.createdAt = calendar.startOfDay(created)
                    rest.removeFirst()
                }
            }
        } else {
            if let first = rest.first, let found = TodoTxtReader.priorityLetter(first) {
                letter = found
                rest.removeFirst()
            }
            if let created = try date(rest.first, what: Localized(en: "creation date", ko: "만든 날짜")) {
                todo.createdAt = calendar.startOfDay(created)
                rest.removeFirst()
            }
        }
        var title: [String] = []
        var noteLines: [String] = []
        var tags: [String] = []
        var repeatWord: (word: String, rule: RepeatRule)?
        for word in rest {
            if let (key, value) = TodoTxtReader.pair(word) {
                switch key {
                case "rec" where repeatWord == nil:
                    if let rule = RepeatRule(todoTxt: value) { repeatWord = (word, rule) } else { noteLines.append(word) }
                case "due":
                    guard todo.due == nil else {
                        throw LineFailure(en: "more than one due: date", ko: "due: 날짜가 둘 이상입니다")
                    }
                    guard let day = try date(value, what: Localized(en: "due date", ko: "마감 날짜")) else {
                        throw LineFailure(en: "due:\(value) is not a date (YYYY-MM-DD)",
                                          ko: "due:\(value)은(는) 날짜(YYYY-MM-DD)가 아닙니다")
                    }
                    todo.due = Due.endOf(day, in: calendar)
                case "pri":
                    guard let found = TodoTxtReader.priorityLetter("(\(value))") else {
                        throw LineFailure(en: "pri:\(value) is not a priority (A to Z)",
                                          ko: "pri:\(value)은(는) 우선순위(A~Z)가 아닙니다")
                    }
                    if letter == nil { letter = found }
                default:
                    noteLines.append(word)
                }
                continue
            }
            title.append(word)
            if let tag = TodoTxtReader.tag(word) { tags.append(tag) }
        }
        guard !title.isEmpty else {
            throw LineFailure(en: "no task text", ko: "할 일 내용이 없습니다")
        }
        if let letter {
            todo.priority = TodoTxtReader.priority(letter)
            if letter > "C" { noteLines.insert("pri:\(letter)", at: 0) }
        }
        // A rule counts from a due date; an open task without one, or a done
        // one (whose next occurrence the todo.txt client already wrote),
        // keeps the word in its note, as any other pair.
        if let repeatWord {
            if todo.due != nil && !todo.isDone { todo.repeatRule = repeatWord.rule } else { noteLines.append(repeatWord.word) }
        }
        todo.title = title.joined(separator: " ")
        todo.note = noteLines.isEmpty ? nil : noteLines.joined(separator: "\n")
        // Every tag passed `tag(_:)`, so this only removes repeats.
        todo.tags = (try? Tags.normalized(tags)) ?? []
        return todo
    }

    /// A `YYYY-MM-DD` word as a date; nil for a word of another shape; an error
    /// for one of that shape that is no date.
    private func date(_ word: String?, what: Localized) throws -> CivilDate? {
        guard let word else { return nil }
        let bytes = Array(word.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes.enumerated().allSatisfy({ $0.offset == 4 || $0.offset == 7 || (48...57).contains($0.element) })
        else { return nil }
        let number = { (range: Range<Int>) in bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
        let day = CivilDate(year: number(0..<4), month: number(5..<7), day: number(8..<10))
        guard day.isValid, day.year >= 1900 else {
            throw LineFailure(en: "\(word) is not a date (the \(what.en))", ko: "\(word)은(는) 없는 날짜입니다 (\(what.ko))")
        }
        return day
    }

    /// `(A)`…`(Z)` as its letter.
    private static func priorityLetter(_ word: String) -> Character? {
        let scalars = Array(word.unicodeScalars)
        guard scalars.count == 3, scalars[0] == "(", scalars[2] == ")", ("A"..."Z").contains(scalars[1]) else {
            return nil
        }
        return Character(scalars[1])
    }

    private static func priority(_ letter: Character) -> Priority {
        switch letter {
        case "A": return .high
        case "B": return .medium
        default: return .low
        }
    }

    /// A todo.txt `key:value` pair: one colon, neither side empty, the key a
    /// word that starts with a letter (so `10:30` stays text), the value not
    /// starting with `//` (so `http://x.org` does too).
    private static func pair(_ word: String) -> (String, String)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let first = parts[0].unicodeScalars.first, first.properties.isAlphabetic,
              first.isASCII, !parts[1].isEmpty, !parts[1].hasPrefix("//"),
              parts[0].unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                  || $0 == "_" || $0 == "-") })
        else { return nil }
        return (String(parts[0]), String(parts[1]))
    }

    /// `+project` or `@context` as a tag: the word without its sign.
    /// Punctuation that ends a sentence (`+Garage,`) is not part of it; a word
    /// that cannot be a memoapp tag as it stands (a comma inside, `+#x`) stays
    /// text only.
    private static func tag(_ word: String) -> String? {
        guard word.count > 1, word.first == "+" || word.first == "@" else { return nil }
        var tag = Substring(word).dropFirst()
        while let last = tag.last, tag.count > 1, ",.;:!?".contains(last) { tag.removeLast() }
        guard !tag.isEmpty, !",.;:!?".contains(tag.first!), (try? Tags.normalized(String(tag))) == String(tag) else { return nil }
        return String(tag)
    }
}
