import MemoCore

/// Reads the lengths people type for a countdown: `90s`, `25m`, `1h30m`,
/// `1h 30m`, `1:30` (m:ss), `1:00:00` (h:mm:ss), a bare number of minutes
/// (`25`), and Korean `25분`, `1시간 30분`, `30초`. Pure: no clock, no storage.
///
/// Units may be spelled out (`min`, `hours`, `sec`), in any letter case, with
/// or without a space after the number; numbers may carry a decimal fraction
/// (`1.5h`). Components go from larger to smaller units, each at most once.
public enum DurationParser {
    /// The longest countdown accepted: one year. Longer is almost surely a typo,
    /// and it keeps every figure far from floating-point trouble.
    public static let maximumSeconds: Double = 365 * 24 * 3600

    /// The shortest: a millisecond. Timers are kept and shown to the
    /// millisecond, so anything shorter would be a countdown of 0, which
    /// is refused; `0.0001` and `5e-324` are refused as `0` is.
    public static let minimumSeconds: Double = 0.001

    /// The forms, as an error message lists them.
    public static let forms = Localized(
        en: "90s, 25m, 1h30m, 1h 30m, 1:30 (m:ss), 1:00:00 (h:mm:ss), 25 (minutes), 25분, 1시간 30분 or 30초",
        ko: "90s, 25m, 1h30m, 1h 30m, 1:30 (분:초), 1:00:00 (시:분:초), 25 (분), 25분, 1시간 30분, 30초")

    /// The number of seconds `text` names.
    /// - Throws: `MemoError(.usage)` naming the accepted forms when `text` is
    ///   unreadable, negative, zero or longer than `maximumSeconds`.
    public static func seconds(in text: String) throws -> Double {
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard let seconds = parse(trimmed) else { throw unreadable(text) }
        guard seconds.isFinite, seconds <= maximumSeconds else { throw tooLong(text) }
        guard seconds >= minimumSeconds else { throw zero(text) }
        return seconds
    }

    // MARK: - Private

    private enum Unit: Int {
        case second = 1, minute = 60, hour = 3600
    }

    private static let unitNames: [String: Unit] = [
        "h": .hour, "hr": .hour, "hrs": .hour, "hour": .hour, "hours": .hour, "시간": .hour,
        "m": .minute, "min": .minute, "mins": .minute, "minute": .minute, "minutes": .minute, "분": .minute,
        "s": .second, "sec": .second, "secs": .second, "second": .second, "seconds": .second, "초": .second,
    ]

    /// nil when the text is not one of the forms (a sign, stray characters,
    /// units out of order). Zero and huge values come back as numbers so that
    /// the caller can say what is wrong with them.
    private static func parse(_ text: String) -> Double? {
        if text.isEmpty { return nil }
        if text.contains(":") { return parseClock(text) }
        if let minutes = number(text) { return minutes * 60 }
        return parseUnits(text)
    }

    /// `m:ss` or `h:mm:ss`; the fields after the first are two digits below 60.
    private static func parseClock(_ text: String) -> Double? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 2 || fields.count == 3,
              fields.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        for field in fields.dropFirst() {
            guard field.count == 2, let value = Int(field), value < 60 else { return nil }
        }
        guard let first = Double(fields[0]) else { return nil }
        let rest = fields.dropFirst().map { Double($0)! }
        if fields.count == 2 { return first * 60 + rest[0] }
        return first * 3600 + rest[0] * 60 + rest[1]
    }

    /// One or more `<number><unit>` components, spaces allowed around units.
    private static func parseUnits(_ text: String) -> Double? {
        var rest = Substring(text)
        var total = 0.0
        var previous: Unit?
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.isEmpty { break }
            let digits = rest.prefix { $0.isASCIIDigit || $0 == "." }
            guard let value = number(String(digits)) else { return nil }
            rest = rest.dropFirst(digits.count).drop { $0.isWhitespace }
            let letters = rest.prefix { $0.isLetter }
            guard let unit = unitNames[letters.lowercased()] else { return nil }
            // Larger units first, each once: "30m 1h" or "1h 1h" is more likely
            // a slip than a wish, so it is refused rather than guessed at.
            if let previous, unit.rawValue >= previous.rawValue { return nil }
            previous = unit
            total += value * Double(unit.rawValue)
            rest = rest.dropFirst(letters.count)
        }
        return previous == nil ? nil : total
    }

    /// Digits with an optional fraction (`25`, `1.5`); no sign, no exponent.
    private static func number(_ text: String) -> Double? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }) else {
            return nil
        }
        return Double(text)
    }

    private static func unreadable(_ text: String) -> MemoError {
        MemoError(.usage,
                  en: "'\(text)' is not a duration. Use \(forms.en).",
                  ko: "'\(text)'은(는) 시간 길이로 읽을 수 없습니다. \(forms.ko) 같은 형식을 쓰세요.")
    }

    private static func zero(_ text: String) -> MemoError {
        MemoError(.usage,
                  en: "A duration must be at least a millisecond (got '\(text)'). Use \(forms.en).",
                  ko: "시간 길이는 1밀리초 이상이어야 합니다 ('\(text)'). \(forms.ko) 같은 형식을 쓰세요.")
    }

    private static func tooLong(_ text: String) -> MemoError {
        MemoError(.usage,
                  en: "'\(text)' is longer than the limit of one year (8760h). Use \(forms.en).",
                  ko: "'\(text)'은(는) 최대 길이인 1년(8760시간)보다 깁니다. \(forms.ko) 같은 형식을 쓰세요.")
    }
}

extension Character {
    /// 0-9 only: `isNumber` would also let in other scripts' digits and fractions.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
