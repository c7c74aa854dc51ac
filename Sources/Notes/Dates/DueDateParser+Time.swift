import MemoCore

/// The time of day that may end a WHEN: `18:30`, `9:05`, `9am`, `6:30pm`,
/// `6:30 pm`, `at 9am`, `noon`, and the Korean `9시`, `9시 30분`, `9시반`,
/// `오전 9시`, `오후 6시 30분`, `정오`; and the parts of a day people say
/// instead of a clock (`DayPeriod`): `evening`, `tomorrow night`, `저녁`,
/// `내일 아침`, or before a clock, `저녁 7시` (19:00), `밤 9시`,
/// `tomorrow evening at 7`.
extension DueDateParser {
    /// A time of day a WHEN ends in.
    struct TimeOfDay {
        var hour: Int
        var minute: Int
        /// Set when the time is a part of the day said alone (`evening`,
        /// `밤`): its usual hour, not one the user gave.
        var period: DayPeriod?
    }

    /// A part of the day: its usual hour when said alone, and the hours
    /// (24-hour) it can hold when said before a clock, which moves a
    /// 12-hour clock into it (`저녁 7시` is 19:00, `아침 7시` 07:00).
    enum DayPeriod: CaseIterable {
        /// `morning`, `아침`: 08:00; 04:00–11:59.
        case morning
        /// `evening`, `저녁`: 18:00; 17:00–23:59.
        case evening
        /// `night`, `밤`: 21:00; 18:00–23:59 (`밤 1시`, after midnight, is
        /// refused: which night's is ambiguous).
        case night
        /// `새벽` (before dawn): only before a clock, 00:00–06:59.
        case dawn

        static let words: [String: DayPeriod] = [
            "morning": .morning, "evening": .evening, "night": .night,
            "아침": .morning, "저녁": .evening, "밤": .night, "새벽": .dawn,
        ]

        /// The hour it means said alone; nil when it needs a clock.
        var usualHour: Int? {
            switch self {
            case .morning: 8
            case .evening: 18
            case .night: 21
            case .dawn: nil
            }
        }

        var hours: ClosedRange<Int> {
            switch self {
            case .morning: 4...11
            case .evening: 17...23
            case .night: 18...23
            case .dawn: 0...6
            }
        }

        /// Whether, said alone about today once its hour has passed, it still
        /// means the rest of today (an evening is not over at 19:00).
        var lastsTheDay: Bool { self == .evening || self == .night }

        /// `hour` (as said) inside this part of the day: as it is, or 12
        /// hours on when it was a 12-hour clock without am or pm; nil when
        /// it is not in it (`저녁 3시`, `evening 7am`).
        func hour(_ hour: Int, hasMeridiem: Bool) -> Int? {
            if hours.contains(hour) { return hour }
            if !hasMeridiem, hour < 12, hours.contains(hour + 12) { return hour + 12 }
            return nil
        }
    }

    /// Removes a time of day from the end of `words` and returns it; nil, with
    /// `words` as they were, when they end in none. A time of that shape that
    /// does not exist (25:00, 13pm, 저녁 3시) is a usage error of its own.
    func takeTimeOfDay(from words: inout [String], original: String) throws -> TimeOfDay? {
        var rest = words
        guard let last = rest.popLast() else { return nil }
        var clock: (hour: Int, minute: Int, hasMeridiem: Bool)?
        if last == "noon" || last == "정오" {
            clock = (12, 0, true)
        } else if last == "am" || last == "pm", let digits = rest.popLast() {
            clock = try twelveHour(digits + last, original: original).map { ($0.hour, $0.minute, true) }
        } else if last.hasSuffix("am") || last.hasSuffix("pm") {
            clock = try twelveHour(last, original: original).map { ($0.hour, $0.minute, true) }
        } else if last.contains(":") {
            clock = try twentyFourHour(last, original: original).map { ($0.hour, $0.minute, false) }
        } else if let time = try korean(last, rest: &rest, original: original) {
            words = rest
            return time
        } else if let period = DayPeriod.words[last] {
            // `tomorrow evening`, `오늘 밤`: the part of the day alone.
            guard let hour = period.usualHour else { return nil }
            words = rest
            return TimeOfDay(hour: hour, minute: 0, period: period)
        } else if (1...2).contains(last.count), last.allSatisfy(\.isASCIIDigit), let hour = Int(last) {
            // `tonight at 9`, `tomorrow evening 7`: a bare hour is a time
            // only after a part of the day, which says which 9 it is.
            var before = rest
            if before.last == "at" { before.removeLast() }
            guard let word = before.last, let period = DayPeriod.words[word], period != .dawn else { return nil }
            clock = (hour, 0, false)
        }
        guard let clock else { return nil }
        if rest.last == "at" { rest.removeLast() }
        var time = TimeOfDay(hour: clock.hour, minute: clock.minute)
        // `tomorrow evening 7pm`, `tonight 9:30`: the part of the day places the clock.
        if let word = rest.last, let period = DayPeriod.words[word] {
            guard let hour = period.hour(clock.hour, hasMeridiem: clock.hasMeridiem) else {
                throw noSuchTime("\(word) \(last)", original: original)
            }
            rest.removeLast()
            time.hour = hour
        }
        words = rest
        return time
    }

    // MARK: - Private

    /// `H:MM` or `HH:MM`, 24-hour; nil for another shape.
    private func twentyFourHour(_ word: String, original: String) throws -> (hour: Int, minute: Int)? {
        guard let (hour, minute) = clockDigits(word) else { return nil }
        guard hour < 24, minute < 60 else { throw noSuchTime(word, original: original) }
        return (hour, minute)
    }

    /// `9am`, `12pm`, `6:30pm`: hours 1 to 12; 12am is midnight, 12pm noon.
    private func twelveHour(_ word: String, original: String) throws -> (hour: Int, minute: Int)? {
        let isAfternoon = word.hasSuffix("pm")
        let clock = String(word.dropLast(2))
        let parts: (Int, Int)?
        if clock.contains(":") {
            parts = clockDigits(clock)
        } else {
            parts = (1...2).contains(clock.count) && clock.allSatisfy(\.isASCIIDigit) ? (Int(clock) ?? 0, 0) : nil
        }
        guard let (hour, minute) = parts else { return nil }
        guard (1...12).contains(hour), minute < 60 else { throw noSuchTime(word, original: original) }
        return (hour % 12 + (isAfternoon ? 12 : 0), minute)
    }

    /// `9시`, `9시반`, `9시 30분`, each after an optional `오전`, `오후` or a
    /// part of the day (`저녁 7시`, `밤 9시 30분`, `아침 8시`, `새벽 5시`).
    private func korean(_ last: String, rest: inout [String], original: String) throws -> TimeOfDay? {
        var hourWord = last
        var minute = 0
        if last.hasSuffix("분") {
            guard let hourPart = rest.last, hourPart.hasSuffix("시"), let minutes = koreanNumber(last.dropLast()) else {
                return nil
            }
            minute = minutes
            hourWord = rest.removeLast()
        } else if last.hasSuffix("시반") {
            minute = 30
            hourWord = String(last.dropLast())
        }
        guard hourWord.hasSuffix("시"), let hour = koreanNumber(hourWord.dropLast()) else { return nil }
        var meridiem: String?
        if let word = rest.last, word == "오전" || word == "오후" || DayPeriod.words[word] != nil {
            meridiem = rest.removeLast()
        }
        let said = ([meridiem].compactMap { $0 } + [last]).joined(separator: " ")
        guard minute < 60 else { throw noSuchTime(said, original: original) }
        switch meridiem {
        case nil:
            guard hour < 24 else { throw noSuchTime(said, original: original) }
            return TimeOfDay(hour: hour, minute: minute)
        case "오전"?, "오후"?:
            guard (1...12).contains(hour) else { throw noSuchTime(said, original: original) }
            return TimeOfDay(hour: hour % 12 + (meridiem == "오후" ? 12 : 0), minute: minute)
        case let word?:
            guard let period = DayPeriod.words[word], let placed = period.hour(hour, hasMeridiem: false) else {
                throw noSuchTime(said, original: original)
            }
            return TimeOfDay(hour: placed, minute: minute)
        }
    }

    /// One or two ASCII digits.
    private func koreanNumber(_ digits: Substring) -> Int? {
        guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// `H:MM` or `HH:MM` as numbers, unchecked; nil for another shape.
    private func clockDigits(_ word: String) -> (Int, Int)? {
        let parts = word.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let hour = Int(parts[0]), let minute = Int(parts[1]) else { return nil }
        return (hour, minute)
    }

    private func noSuchTime(_ word: String, original: String) -> MemoError {
        // The words whole, and the part that is no time when there is more.
        let part = DueDateParser.words(original).joined(separator: " ") == word ? "" : " ('\(DueDateParser.quoted(original))')"
        return MemoError(.usage, en: "there is no time \(DueDateParser.quoted(word))\(part); try 18:30, 6:30pm or evening 7",
                         ko: "\(DueDateParser.quoted(word))은(는) 없는 시각입니다\(part). 18:30, 오후 6시 30분, 저녁 7시처럼 쓰세요")
    }
}
