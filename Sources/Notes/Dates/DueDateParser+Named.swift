import MemoCore

/// Days named the way people say them rather than the way ISO writes them:
/// - a month and a day, in either order, with or without a year: `dec 25`,
///   `December 25, 2027`, `25 dec`, `12월 25일`, `2027년 12월 25일`. Without a
///   year, the next such day from today on (today included), so `dec 25` in
///   January is this year's and in late December next year's;
/// - `next friday` and `this friday`: the Friday of next week or of this one
///   (weeks run Monday to Sunday), as `다음 주 금요일` and `이번 주 금요일` are.
///   `next week` alone stays refused, as `다음 주` is: which of its days is
///   meant is the user's to say.
extension DueDateParser {
    /// The day `words` name in one of these forms, nil when they have none of
    /// their shapes; a day of such a shape that does not exist (`feb 30`) is a
    /// usage error of its own.
    func namedDay(_ words: [String], today: CivilDate, original: String) throws -> CivilDate? {
        if let day = nextOrThis(words, today: today) { return day }
        // "December 25, 2027": the comma is punctuation.
        let words = words.map { $0.hasSuffix(",") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
        guard let (month, day, year) = englishMonthDay(words) ?? koreanMonthDay(words) else { return nil }
        if let year {
            let date = CivilDate(year: year, month: month, day: day)
            guard date.isValid, year >= 1900 else { throw noSuchDay(original) }
            return date
        }
        // The next one from today on: this year's, or a later year's (February 29 waits for a leap year).
        for ahead in 0...8 {
            let date = CivilDate(year: today.year + ahead, month: month, day: day)
            if date.isValid, date >= today { return date }
        }
        throw noSuchDay(original)
    }

    // MARK: - Private

    private static let months: [String: Int] = {
        let names = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                     "october", "november", "december"]
        var table: [String: Int] = [:]
        for (index, name) in names.enumerated() {
            table[name] = index + 1
            table[String(name.prefix(3))] = index + 1
        }
        table["sept"] = 9
        return table
    }()

    /// `dec 25`, `25 dec`, each with an optional year after it.
    private func englishMonthDay(_ words: [String]) -> (month: Int, day: Int, year: Int?)? {
        guard (2...3).contains(words.count) else { return nil }
        let year: Int?
        if words.count == 3 {
            guard let given = number(words[2], digits: 4...4) else { return nil }
            year = given
        } else {
            year = nil
        }
        if let month = DueDateParser.months[words[0]], let day = number(dayWord(words[1]), digits: 1...2) {
            return (month, day, year)
        }
        if let month = DueDateParser.months[words[1]], let day = number(dayWord(words[0]), digits: 1...2) {
            return (month, day, year)
        }
        return nil
    }

    /// `12월 25일`, `12월25일`, `2027년 12월 25일`.
    private func koreanMonthDay(_ words: [String]) -> (month: Int, day: Int, year: Int?)? {
        var rest = words.joined()
        var year: Int?
        if let mark = rest.firstIndex(of: "년") {
            guard let given = number(String(rest[..<mark]), digits: 4...4) else { return nil }
            year = given
            rest = String(rest[rest.index(after: mark)...])
        }
        guard rest.hasSuffix("일"), let mark = rest.firstIndex(of: "월"),
              let month = number(String(rest[..<mark]), digits: 1...2),
              let day = number(String(rest[rest.index(after: mark)...].dropLast()), digits: 1...2) else { return nil }
        return (month, day, year)
    }

    /// `next friday`, `this fri`.
    private func nextOrThis(_ words: [String], today: CivilDate) -> CivilDate? {
        let monday = today.adding(days: -((today.weekday + 6) % 7))
        guard words.count == 2, words[0] == "next" || words[0] == "this",
              let weekday = DueDateParser.weekdays[words[1]] else { return nil }
        return monday.adding(days: (words[0] == "next" ? 7 : 0) + (weekday + 6) % 7)
    }

    /// `25`, and the English ordinals `25th`, `1st`, `2nd`, `3rd`.
    private func dayWord(_ word: String) -> String {
        for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) { return String(word.dropLast(2)) }
        return word
    }

    private func number(_ word: String, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(word.count), word.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(word)
    }

    private func noSuchDay(_ original: String) -> MemoError {
        MemoError(.usage, en: "there is no such day as '\(DueDateParser.quoted(original))'",
                  ko: "'\(DueDateParser.quoted(original))'은(는) 없는 날짜입니다")
    }
}
