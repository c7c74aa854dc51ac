import MemoCore
import Notes

/// Dates as people read them in a list: "today 18:00", "tomorrow", "Fri 4 Dec",
/// "3 days ago", "2 hours ago" (오늘 18:00, 내일, 12월 4일 (금), 3일 전, 2시간 전).
///
/// A pure function of the date, "now", the calendar and the language, so
/// tests fix all four. `show` and `--json` keep the exact time; this is for
/// lists, where a glance should tell how near a date is.
public struct RelativeDate {
    public let now: Timestamp
    public let calendar: any LocalCalendar
    public let language: Language
    private let today: CivilDate

    public init(now: Timestamp, calendar: any LocalCalendar, language: Language) {
        self.now = now
        self.calendar = calendar
        self.language = language
        today = calendar.date(at: now)
    }

    /// The longest text `due` and `past` make in `language`, in display
    /// columns: the width of a date column, known before any row is read.
    public static func maximumWidth(in language: Language) -> Int {
        // en: "Wed 30 Sep 18:00"; ko: "12월 30일 (수) 18:00".
        language == .ko ? 20 : 16
    }

    /// When a to-do is due, by day: today, tomorrow and yesterday by name,
    /// the coming week by weekday and date, the past week as days ago, the
    /// rest of this year by weekday and date, other years as `2027-12-04`.
    /// A due with a time of day shows it beside a day named or dated.
    public func due(_ due: Due) -> String {
        let moment = calendar.civil(at: due.instant)
        let days = today.days(until: moment.date)
        let time = due.hasTime ? " " + clockTime(moment) : ""
        switch days {
        case 0: return word(en: "today", ko: "오늘") + time
        case 1: return word(en: "tomorrow", ko: "내일") + time
        case -1: return word(en: "yesterday", ko: "어제") + time
        case -6 ... -2: return daysAgo(-days)
        default: return dated(moment.date) + (moment.date.year == today.year ? time : "")
        }
    }

    /// When something happened (a memo written, a recording imported): "just
    /// now", minutes and hours ago within today, "yesterday 18:00", days ago
    /// within the week, then the date. A moment ahead of now (another clock)
    /// reads "in 3 days".
    public func past(_ instant: Timestamp) -> String {
        let seconds = now.secondsSince1970 - instant.secondsSince1970
        guard seconds.isFinite else { return dated(calendar.date(at: instant)) }
        let moment = calendar.civil(at: instant)
        let days = moment.date.days(until: today)
        if seconds < 0 { return ahead(-seconds, days: -days) }
        if seconds < 60 { return word(en: "just now", ko: "방금") }
        if seconds < 3600 { return count(Int(seconds / 60), en: "min ago", ko: "분 전") }
        if days == 0 { return count(Int(seconds / 3600), en: Int(seconds / 3600) == 1 ? "hour ago" : "hours ago", ko: "시간 전") }
        if days == 1 { return word(en: "yesterday", ko: "어제") + " " + clockTime(moment) }
        if days <= 6 { return daysAgo(days) }
        return dated(moment.date)
    }

    // MARK: - Private

    private func ahead(_ seconds: Double, days: Int) -> String {
        if seconds < 60 { return word(en: "just now", ko: "방금") }
        if seconds < 3600 { return language == .ko ? "\(Int(seconds / 60))분 후" : "in \(Int(seconds / 60)) min" }
        if days == 0 {
            let hours = Int(seconds / 3600)
            return language == .ko ? "\(hours)시간 후" : "in \(hours) \(hours == 1 ? "hour" : "hours")"
        }
        if days <= 6 { return language == .ko ? "\(days)일 후" : "in \(days) \(days == 1 ? "day" : "days")" }
        return dated(today.adding(days: days))
    }

    private func daysAgo(_ days: Int) -> String {
        language == .ko ? "\(days)일 전" : "\(days) days ago"
    }

    private func count(_ value: Int, en: String, ko: String) -> String {
        language == .ko ? "\(value)\(ko)" : "\(value) \(en)"
    }

    private func word(en: String, ko: String) -> String { language == .ko ? ko : en }

    /// `Fri 4 Dec` or `12월 4일 (금)` within this year; `2027-12-04` otherwise.
    private func dated(_ date: CivilDate) -> String {
        guard date.year == today.year else { return date.description }
        let weekday = date.weekday
        if language == .ko {
            return "\(date.month)월 \(date.day)일 (\(RelativeDate.koreanWeekdays[weekday]))"
        }
        return "\(RelativeDate.englishWeekdays[weekday]) \(date.day) \(RelativeDate.englishMonths[date.month - 1])"
    }

    private func clockTime(_ moment: CivilDateTime) -> String {
        (moment.hour < 10 ? "0" : "") + String(moment.hour) + ":" + (moment.minute < 10 ? "0" : "") + String(moment.minute)
    }

    private static let englishWeekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let koreanWeekdays = ["일", "월", "화", "수", "목", "금", "토"]
    private static let englishMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
