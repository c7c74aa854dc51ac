import MemoCore

/// Reading a rule as people type it (`--repeat`), and as Taskwarrior's
/// `recur` and todo.txt's `rec:` write it.
extension RepeatRule {
    /// The accepted forms, for errors and help text.
    public static let acceptedForms = Localized(
        en: "daily, weekly, monthly, yearly, weekdays, every N days|weeks|months|years, Nd, Nw, Nm, Ny, "
            + "매일, 매주, 매월, 매년, 평일, N일마다, N주마다",
        ko: "매일, 매주, 매월, 매년, 평일, N일마다, N주마다, N개월마다, N년마다, daily, weekly, monthly, yearly, "
            + "weekdays, every N days|weeks|months|years, Nd, Nw, Nm, Ny")

    /// Reads `daily`, `weekly`, `monthly`, `yearly`, `weekdays`, `every 2
    /// weeks`, `2w` (and the Korean forms of `acceptedForms`), any case,
    /// counting from the due date; or throws a usage error naming the forms.
    public init(parsing text: String) throws {
        guard let rule = RepeatRule.rule(text) else {
            throw MemoError(.usage, en: "unrecognized repeat '\(text)'; accepted: \(RepeatRule.acceptedForms.en)",
                            ko: "반복 '\(text)'을(를) 알 수 없습니다. 가능한 형식: \(RepeatRule.acceptedForms.ko)")
        }
        self = rule
    }

    /// Reads a Taskwarrior `recur` value (`weekly`, `2wks`, `biweekly`,
    /// `quarterly`, `P1M`…), or nil for one memoapp cannot keep as a rule.
    public init?(taskwarrior text: String) {
        let word = text.lowercased()
        let named: [String: RepeatRule] = [
            "biweekly": RepeatRule(every: 2, unit: .week), "fortnight": RepeatRule(every: 2, unit: .week),
            "quarterly": RepeatRule(every: 3, unit: .month), "semiannual": RepeatRule(every: 6, unit: .month),
            "annual": RepeatRule(every: 1, unit: .year), "biannual": RepeatRule(every: 2, unit: .year),
            "biyearly": RepeatRule(every: 2, unit: .year),
        ]
        if let rule = named[word] ?? RepeatRule.rule(word) {
            self = rule
            return
        }
        // ISO 8601 periods, as Taskwarrior also writes them: P1D, P2W, P1M, P1Y.
        var body = Substring(word)
        if body.hasPrefix("p") { body = body.dropFirst() }
        let digits = body.prefix(while: \.isASCIIDigit)
        let units: [String: Unit] = ["d": .day, "day": .day, "days": .day, "w": .week, "wk": .week, "wks": .week,
                                     "week": .week, "weeks": .week, "mo": .month, "mos": .month, "m": .month,
                                     "month": .month, "months": .month, "y": .year, "yr": .year, "yrs": .year,
                                     "year": .year, "years": .year]
        guard let count = RepeatRule.count(digits), let unit = units[String(body.dropFirst(digits.count))] else {
            return nil
        }
        self.init(every: count, unit: unit)
    }

    /// Reads a todo.txt `rec:` value: `1w` counts from the day it was done,
    /// `+1w` from its due date (the convention of the todo.txt clients that
    /// write it); units d, w, m, y, and `1b` for every weekday. Nil otherwise.
    public init?(todoTxt text: String) {
        var body = Substring(text.lowercased())
        let anchor: Anchor = body.hasPrefix("+") ? .due : .done
        if anchor == .due { body = body.dropFirst() }
        guard let unitLetter = body.last, let count = RepeatRule.count(body.dropLast()) else { return nil }
        switch unitLetter {
        case "d": self.init(every: count, unit: .day, from: anchor)
        case "w": self.init(every: count, unit: .week, from: anchor)
        case "m": self.init(every: count, unit: .month, from: anchor)
        case "y": self.init(every: count, unit: .year, from: anchor)
        case "b" where count == 1: self.init(every: 1, unit: .weekday, from: anchor)
        default: return nil
        }
    }

    // MARK: - Private

    private static func rule(_ text: String) -> RepeatRule? {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        let single: [String: RepeatRule] = [
            "daily": RepeatRule(every: 1, unit: .day), "매일": RepeatRule(every: 1, unit: .day),
            "weekly": RepeatRule(every: 1, unit: .week), "매주": RepeatRule(every: 1, unit: .week),
            "monthly": RepeatRule(every: 1, unit: .month), "매월": RepeatRule(every: 1, unit: .month),
            "매달": RepeatRule(every: 1, unit: .month),
            "yearly": RepeatRule(every: 1, unit: .year), "매년": RepeatRule(every: 1, unit: .year),
            "weekdays": RepeatRule(every: 1, unit: .weekday), "평일": RepeatRule(every: 1, unit: .weekday),
        ]
        let units: [String: Unit] = ["day": .day, "days": .day, "week": .week, "weeks": .week, "month": .month,
                                     "months": .month, "year": .year, "years": .year, "weekday": .weekday]
        switch words.count {
        case 1:
            let word = words[0]
            if let rule = single[word] { return rule }
            // 2w, 3d, 1m, 1y
            let short: [Character: Unit] = ["d": .day, "w": .week, "m": .month, "y": .year]
            if let letter = word.last, let unit = short[letter], let count = count(word.dropLast()) {
                return RepeatRule(every: count, unit: unit)
            }
            // 3일마다, 2주마다, 6개월마다, 1년마다
            let korean: [(String, Unit)] = [("일마다", .day), ("주마다", .week), ("개월마다", .month), ("달마다", .month),
                                            ("년마다", .year)]
            for (suffix, unit) in korean where word.hasSuffix(suffix) {
                if let count = count(word.dropLast(suffix.count)) { return RepeatRule(every: count, unit: unit) }
            }
            return nil
        case 2 where words[0] == "every":
            // every day, every week, every weekday
            return units[words[1]].map { RepeatRule(every: 1, unit: $0) }
        case 3 where words[0] == "every":
            guard let count = count(Substring(words[1])), let unit = units[words[2]], unit != .weekday else {
                return nil
            }
            return RepeatRule(every: count, unit: unit)
        default:
            return nil
        }
    }

    /// 1 to `largestEvery`, written with ASCII digits only.
    private static func count(_ digits: Substring) -> Int? {
        guard (1...3).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), let value = Int(digits),
              (1...largestEvery).contains(value) else { return nil }
        return value
    }
}
