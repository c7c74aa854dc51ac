import MemoCore

/// Reads the WHEN of `todo add --due WHEN` in the local calendar it is handed.
///
/// Accepted, case-insensitive, spaces between words free:
/// - a day: `today`, `tomorrow`, `yesterday`, `오늘`, `내일`, `모레` (the day
///   after tomorrow), `어제`; a weekday, English (`monday`, `mon`) or Korean
///   (`월요일`, `월`): the next such day strictly after today, so `monday`
///   said on a Monday is a week away; `다음 주 금요일` (Friday of next week,
///   weeks starting on Monday) and `이번 주 금요일` (of this week);
/// - the last day of this week (Sunday), month or year: `eow`, `end of week`,
///   `end of the week`; `eom`, `end of month`, `end of the month`, `월말`,
///   `이번 달 말`, `이달 말`, `말일`; `eoy`, `end of year`, `연말`, `올해 말`;
///   and of next month: `end of next month`, `다음 달 말`;
/// - `+3d`, `+2w`, `+1m`, `in 3 days`, `in 2 weeks`, `in 1 month`, `3일 후`,
///   `2주 뒤`, `1개월 후`: that many days, weeks or months from today (`+0d`
///   is today; a month from January 31 is the last day of February);
/// - `YYYY-MM-DD`;
/// - a month and a day (`dec 25`, `25 December 2027`, `12월 25일`), `next
///   friday`, `this friday` (`DueDateParser+Named`);
/// - any of these followed by a time of day (`DueDateParser+Time`):
///   `tomorrow 9:00`, `fri 18:30`, `9am`, `내일 오전 9시`, `모레 저녁 7시`;
///   or by a part of the day: `tomorrow morning` (08:00), `fri evening`
///   (18:00), `tomorrow night` (21:00), `내일 아침`, `내일 저녁`, `내일 밤`;
///   and `YYYY-MM-DDTHH:MM`. A time alone is today at that time, or tomorrow
///   when it has passed;
/// - `tonight` (today at 21:00, as `오늘 밤`), `this evening` (today at
///   18:00, as `오늘 저녁`), `this morning`; an evening or a night said of
///   today once its hour has passed (`tonight` at 22:00, `저녁` at 19:00)
///   means by the end of today: a date-only due of today, never a moment
///   already gone. A part of the day alone (`저녁`) is today's, or for the
///   morning, tomorrow's once 08:00 has passed.
///
/// Forms without a time give a date-only `Due` (see `Due`). Anything else is a
/// usage error with a few examples (`acceptedForms` lists them all, for help).
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

    /// Every accepted form, for help text (a refusal gives `examples`).
    public static let acceptedForms = Localized(
        en: "today, tomorrow, yesterday, a weekday (monday or mon), next friday, eow, eom, eoy, "
            + "end of week, end of month, end of next month, end of year, "
            + "+3d, +2w, +1m, in 3 days, dec 25, 25 dec 2027, YYYY-MM-DD, each optionally with a time "
            + "(HH:MM, 9am, 6:30pm, noon) or a part of the day (morning 08:00, evening 18:00, night 21:00; "
            + "evening 7 is 19:00), tonight (21:00), this evening (18:00) (said later, by the end of today), YYYY-MM-DD HH:MM, YYYY-MM-DDTHH:MM, "
            + "RFC 3339 (2026-12-04T09:00:00Z, 2026-12-04T18:00:00+09:00), "
            + "오늘, 내일, 모레, 어제, 3일 후, 다음 주 금요일, 12월 25일, 월말, 내일 오전 9시, 오늘 밤, 모레 저녁 7시",
        ko: "오늘, 내일, 모레, 어제, 요일(월요일 또는 월, monday), 다음 주 금요일, 이번 주 금요일, next friday, "
            + "3일 후, 2주 뒤, 12월 25일, 2027년 12월 25일, 월말(이번 달 말, 말일), 다음 달 말, 연말, "
            + "eow, eom, eoy, +3d, +2w, +1m, in 3 days, dec 25, YYYY-MM-DD, "
            + "각각 시각과 함께(HH:MM, 오전 9시, 오후 6시 30분, 정오, 9am) 또는 때와 함께"
            + "(아침 08:00, 저녁 18:00, 밤 21:00; 저녁 7시는 19:00, 밤 9시는 21:00, 새벽 5시), "
            + "오늘 밤(21:00), 오늘 저녁(18:00)(그 뒤에 쓰면 오늘 끝까지), "
            + "YYYY-MM-DD HH:MM, YYYY-MM-DDTHH:MM, RFC 3339(2026-12-04T09:00:00Z, 2026-12-04T18:00:00+09:00), "
            + "today, tomorrow, tonight, end of month")

    /// A few forms, for a refusal: short, in the user's language.
    public static let examples = Localized(en: "tomorrow 18:00, tonight, dec 25", ko: "내일 18:00, 모레 저녁 7시, 12월 25일")

    /// The moment a reminder written as `text` is for: the words a due date
    /// takes, a date alone being its morning (`Due.reminderMoment`). The
    /// command line's `--remind` and the API's `remind` both read it here.
    public func reminder(_ text: String) throws -> Timestamp {
        // An exact moment (a `remind_at` sent back) is that moment, even at
        // the last second of a day, where a due would be a date alone.
        if let due = try exactMoment(text), due.hasTime == false, let moment = Timestamp(rfc3339: text) { return moment }
        return try parse(text).reminderMoment(in: calendar)
    }

    /// Parses `text`, or throws `MemoError(.usage)` with a few examples.
    public func parse(_ text: String) throws -> Due {
        if let due = try exactMoment(text) { return due }
        var words = DueDateParser.words(text)
        let today = calendar.date(at: now)
        // 2026-12-04T09:00: one word holding both.
        if words.count == 1, let separator = words[0].firstIndex(of: "t"), words[0].first?.isASCIIDigit == true {
            words = [String(words[0][..<separator]), String(words[0][words[0].index(after: separator)...])]
        }
        let time = try takeTimeOfDay(from: &words, original: text)
        if words.isEmpty, let time {
            // A time alone: the next time the clock shows it; an evening or
            // a night begun is still today's.
            let todayAt = instant(today, time)
            if todayAt > now { return Due(instant: todayAt, hasTime: true) }
            if time.period?.lastsTheDay == true { return Due.endOf(today, in: calendar) }
            return Due(instant: instant(today.adding(days: 1), time), hasTime: true)
        }
        guard let date = try day(words, today: today, original: text) else { throw unrecognized(text) }
        guard let time else { return Due.endOf(date, in: calendar) }
        let moment = instant(date, time)
        // `tonight` at 22:00: by the end of today, not 21:00 gone by.
        if date == today, time.period?.lastsTheDay == true, moment <= now { return Due.endOf(today, in: calendar) }
        return Due(instant: moment, hasTime: true)
    }

    /// An RFC 3339 date-time with `Z` or an offset (`2026-12-04T09:00:00Z`,
    /// `…+09:00`): a moment, whatever the time zone, so that a client can
    /// send back the `due_at` it read. The last second of a local day is a
    /// date-only due again, which is what a date-only due's `due_at` is.
    /// Nil for anything else (the words).
    func exactMoment(_ text: String) throws -> Due? {
        guard text.utf8.count >= 20, text.utf8.first.map({ $0 >= 0x30 && $0 <= 0x39 }) == true,
              let moment = Timestamp(rfc3339: text) else { return nil }
        guard moment.isSupported else { throw unrecognized(text) }
        let endOfDay = Due.endOf(calendar.date(at: moment), in: calendar)
        if abs(endOfDay.instant.secondsSince1970 - moment.secondsSince1970) < 0.0005 { return endOfDay }
        return Due(instant: moment, hasTime: true)
    }

    /// The first moment `text` names, for "since": a date's local midnight,
    /// or the time given.
    public func start(of text: String) throws -> Timestamp {
        let due = try parse(text)
        return due.hasTime ? due.instant : calendar.startOfDay(due.date(in: calendar))
    }

    /// The last moment `text` names, for "until": a date's 23:59:59, or the
    /// time given.
    public func end(of text: String) throws -> Timestamp {
        try parse(text).instant
    }

    // MARK: - Days

    /// Weekday names, English and Korean, full and short, to 0 (Sunday) … 6.
    static let weekdays: [String: Int] = {
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

    /// The day `words` name, nil when they name none.
    private func day(_ words: [String], today: CivilDate, original: String) throws -> CivilDate? {
        if let date = periodEnd(words, today: today) { return date }
        if let date = try namedDay(words, today: today, original: original) { return date }
        switch words.count {
        case 1:
            if let date = relativeDate(words[0], today: today) { return date }
            if let date = try count(words[0], today: today) { return date }
            return try absoluteDate(words[0], original: original)
        case 2:
            // 3일 후, 2주 뒤; 다음주 금요일, 이번주 금
            if words[1] == "후" || words[1] == "뒤" { return try count("+" + words[0], today: today) }
            return weekday(words[1], inWeek: words[0], today: today)
        case 3:
            // in 3 days; 다음 주 금요일
            if words[0] == "in" { return try count("+" + words[1] + words[2], today: today) }
            return weekday(words[2], inWeek: words[0] + words[1], today: today)
        default:
            return nil
        }
    }

    private func relativeDate(_ word: String, today: CivilDate) -> CivilDate? {
        switch word {
        case "today", "오늘": return today
        case "tomorrow", "내일": return today.adding(days: 1)
        case "모레": return today.adding(days: 2)
        case "yesterday", "어제": return today.adding(days: -1)
        // Weeks run Monday to Sunday, as ISO 8601 and Korean calendars have them.
        case "eow": return today.adding(days: (7 - today.weekday) % 7)
        case "eom": return CivilDate(year: today.year, month: today.month,
                                     day: CivilDate.daysIn(month: today.month, year: today.year))
        case "eoy": return CivilDate(year: today.year, month: 12, day: 31)
        default: break
        }
        if let weekday = DueDateParser.weekdays[word] {
            let ahead = (weekday - today.weekday + 7) % 7
            return today.adding(days: ahead == 0 ? 7 : ahead)
        }
        return nil
    }

    /// `+3d`, `+2w`, `+1m` and the words `in N days` and `N일 후` become:
    /// `+N` and a unit (`d`, `day`, `days`, `일`, `w`, `weeks`, `주`, `m`,
    /// `month`, `months`, `개월`, `달`). Nil when `word` has another shape; a
    /// count past five digits is no date either.
    private func count(_ word: String, today: CivilDate) throws -> CivilDate? {
        guard word.hasPrefix("+") else { return nil }
        let body = word.dropFirst()
        let digits = body.prefix(while: \.isASCIIDigit)
        let units: [String: Int] = ["d": 1, "day": 1, "days": 1, "일": 1, "w": 7, "week": 7, "weeks": 7, "주": 7,
                                    "m": 0, "month": 0, "months": 0, "개월": 0, "달": 0]
        // Five digits at most: 99,999 days is far enough and cannot overflow.
        guard (1...5).contains(digits.count), let count = Int(digits),
              let daysPerUnit = units[String(body.dropFirst(digits.count))] else { return nil }
        guard daysPerUnit == 0 else { return today.adding(days: count * daysPerUnit) }
        guard count <= 1200 else { return nil }
        return today.adding(months: count)
    }

    /// `금요일` of `다음주` (next week) or `이번주` (this week), weeks starting on Monday.
    private func weekday(_ word: String, inWeek week: String, today: CivilDate) -> CivilDate? {
        guard let weekday = DueDateParser.weekdays[word] else { return nil }
        let weeksAhead: Int
        switch week {
        case "다음주": weeksAhead = 1
        case "이번주": weeksAhead = 0
        default: return nil
        }
        // Days since Monday: Sunday is the week's seventh day.
        let monday = today.adding(days: -((today.weekday + 6) % 7))
        return monday.adding(days: 7 * weeksAhead + (weekday + 6) % 7)
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
            let part = DueDateParser.words(original) == [word] ? "" : " ('\(DueDateParser.quoted(original))')"
            throw MemoError(.usage, en: "there is no date \(word)\(part)", ko: "\(word)은(는) 없는 날짜입니다\(part)")
        }
        return date
    }

    private func instant(_ date: CivilDate, _ time: TimeOfDay) -> Timestamp {
        calendar.instant(of: CivilDateTime(date: date, hour: time.hour, minute: time.minute))
    }

    func unrecognized(_ text: String) -> MemoError {
        MemoError(.usage, en: "unrecognized date '\(DueDateParser.quoted(text))'; try \(DueDateParser.examples.en)",
                  ko: "날짜 '\(DueDateParser.quoted(text))'을(를) 알 수 없습니다. 예: \(DueDateParser.examples.ko)")
    }
}

extension Character {
    /// 0–9 only: `Character.isNumber` would also accept other scripts' digits.
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
