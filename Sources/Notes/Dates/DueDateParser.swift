import MemoCore

/// Reads the WHEN of `todo add --due WHEN` in the local calendar it is handed.
///
/// Accepted, case-insensitive, surrounding spaces ignored:
/// - `today`, `tomorrow`, `오늘`, `내일`, `모레` (the day after tomorrow);
/// - a weekday, English (`monday`, `mon`) or Korean (`월요일`, `월`): the next
///   such day strictly after today, so `monday` said on a Monday is a week away;
/// - `+3d`, `+2w`: that many days or weeks from today (`+0d` is today);
/// - `YYYY-MM-DD`, and `YYYY-MM-DD HH:MM` (24-hour) for a time of day.
///
/// Forms without a time give a date-only `Due` (see `Due`). Anything else is a
/// usage error that names the accepted forms.
public struct DueDateParser: Sendable {
    /// The moment "today" and "+3d" count from.
    public let now: Timestamp
    /// The local calendar dates are read in.
    public let calendar: any LocalCalendar

    /// A parser for `now` in `calendar`.
    public init(now: Timestamp, calendar: any LocalCalendar) {
        self.now = now
        self.calendar = calendar
    }

    /// The accepted forms, for errors and help text.
    public static let acceptedForms = Localized(
        en: "today, tomorrow, a weekday (monday or mon), +3d, +2w, YYYY-MM-DD, YYYY-MM-DD HH:MM, 오늘, 내일, 모레",
        ko: "오늘, 내일, 모레, 요일(월요일 또는 월, monday), +3d, +2w, YYYY-MM-DD, YYYY-MM-DD HH:MM, today, tomorrow")

    /// Parses `text`, or throws `MemoError(.usage)` naming the accepted forms.
    public func parse(_ text: String) throws -> Due {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { String($0).lowercased() }
        let today = calendar.date(at: now)
        if words.count == 1, let date = relativeDate(words[0], today: today) {
            return Due.endOf(date, in: calendar)
        }
        if words.count == 1, let date = try absoluteDate(words[0], original: text) {
            return Due.endOf(date, in: calendar)
        }
        if words.count == 2, let date = try absoluteDate(words[0], original: text),
           let (hour, minute) = try timeOfDay(words[1], original: text) {
            let instant = calendar.instant(of: CivilDateTime(date: date, hour: hour, minute: minute))
            return Due(instant: instant, hasTime: true)
        }
        throw unrecognized(text)
    }

    // MARK: - Private

    private static let weekdays: [String: Int] = {
        var table: [String: Int] = [:]
        let english = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        let korean = ["일", "월", "화", "수", "목", "금", "토"]
        for (index, name) in english.enumerated() {
            table[name] = index
            table[String(name.prefix(3))] = index
        }
        for (index, name) in korean.enumerated() {
            table[name] = index
            table[name + "요일"] = index
        }
        return table
    }()

    private func relativeDate(_ word: String, today: CivilDate) -> CivilDate? {
        switch word {
        case "today", "오늘": return today
        case "tomorrow", "내일": return today.adding(days: 1)
        case "모레": return today.adding(days: 2)
        default: break
        }
        if let weekday = DueDateParser.weekdays[word] {
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        if word.hasPrefix("+"), let unit = word.last, unit == "d" || unit == "w" {
            let digits = word.dropFirst().dropLast()
            // Five digits at most: 99,999 days is far enough and cannot overflow.
            guard (1...5).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let count = Int(digits) else {
                return nil
            }
            return today.adding(days: unit == "w" ? count * 7 : count)
        }
        return nil
    }

    /// `YYYY-MM-DD`, or nil when `word` does not have that shape; a date of that
    /// shape that does not exist (2026-02-30) is an error of its own.
    private func absoluteDate(_ word: String, original: String) throws -> CivilDate? {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return nil
        }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, year >= 1900 else {
            throw MemoError(.usage, en: "there is no date \(word) (in '\(original)'); accepted: \(DueDateParser.acceptedForms.en)",
                            ko: "\(word)은(는) 없는 날짜입니다('\(original)'). 가능한 형식: \(DueDateParser.acceptedForms.ko)")
        }
        return date
    }

    /// `HH:MM` (or `H:MM`), 24-hour.
    private func timeOfDay(_ word: String, original: String) throws -> (Int, Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else {
            return nil
        }
        guard hour < 24, minute < 60 else {
            throw MemoError(.usage, en: "there is no time \(word) (in '\(original)'); use 24-hour HH:MM",
                            ko: "\(word)은(는) 없는 시각입니다('\(original)'). 24시간제 HH:MM으로 쓰세요")
        }
        return (hour, minute)
    }

    private func unrecognized(_ text: String) -> MemoError {
        MemoError(.usage, en: "unrecognized date '\(text)'; accepted: \(DueDateParser.acceptedForms.en)",
                  ko: "날짜 '\(text)'을(를) 알 수 없습니다. 가능한 형식: \(DueDateParser.acceptedForms.ko)")
    }
}

extension Character {
    /// 0–9 only: `Character.isNumber` would also accept other scripts' digits.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
