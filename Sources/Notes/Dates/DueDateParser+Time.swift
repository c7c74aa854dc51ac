import MemoCore

/// The time of day that may end a WHEN: `18:30`, `9:05`, `9am`, `6:30pm`,
/// `6:30 pm`, `at 9am`, `noon`, and the Korean `9시`, `9시 30분`, `9시반`,
/// `오전 9시`, `오후 6시 30분`, `정오`.
extension DueDateParser {
    /// Removes a time of day from the end of `words` and returns it; nil, with
    /// `words` as they were, when they end in none. A time of that shape that
    /// does not exist (25:00, 13pm) is a usage error of its own.
    func takeTimeOfDay(from words: inout [String], original: String) throws -> (hour: Int, minute: Int)? {
        var rest = words
        guard let last = rest.popLast() else { return nil }
        var time: (hour: Int, minute: Int)?
        if last == "noon" || last == "정오" {
            time = (12, 0)
        } else if last == "am" || last == "pm", let clock = rest.popLast() {
            time = try twelveHour(clock + last, original: original)
        } else if last.hasSuffix("am") || last.hasSuffix("pm") {
            time = try twelveHour(last, original: original)
        } else if last.contains(":") {
            time = try twentyFourHour(last, original: original)
        } else {
            time = try korean(last, rest: &rest, original: original)
        }
        guard let time else { return nil }
        if rest.last == "at" { rest.removeLast() }
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

    /// `9시`, `9시반`, `9시 30분`, each after an optional `오전` or `오후`.
    private func korean(_ last: String, rest: inout [String], original: String) throws -> (hour: Int, minute: Int)? {
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
        if rest.last == "오전" || rest.last == "오후" { meridiem = rest.removeLast() }
        guard minute < 60, meridiem == nil ? hour < 24 : (1...12).contains(hour) else {
            throw noSuchTime(([meridiem].compactMap { $0 } + [last]).joined(separator: " "), original: original)
        }
        switch meridiem {
        case "오전": return (hour % 12, minute)
        case "오후": return (hour % 12 + 12, minute)
        default: return (hour, minute)
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
        MemoError(.usage, en: "there is no time \(word) (in '\(original)'); use 24-hour HH:MM, 9am or 오전 9시",
                  ko: "\(word)은(는) 없는 시각입니다('\(original)'). 24시간제 HH:MM, 9am, 오전 9시처럼 쓰세요")
    }
}
