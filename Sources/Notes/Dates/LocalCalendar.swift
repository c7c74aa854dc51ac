import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// A date on the wall calendar, with no time zone: what a person means by
/// "2026-11-30".
public struct CivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The year, e.g. 2026.
    public var year: Int
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int

    /// A date; check `isValid` before trusting one built from user input.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the date exists in the proleptic Gregorian calendar (no 2026-02-30).
    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDate.daysIn(month: month, year: year)
    }

    /// 0 for Sunday through 6 for Saturday, as `tm_wday` counts.
    public var weekday: Int {
        let days = daysSince1970
        // 1970-01-01 was a Thursday (4).
        return Int(((days % 7) + 7 + 4) % 7)
    }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> CivilDate {
        CivilDate(daysSince1970: daysSince1970 + Int64(count))
    }

    /// The date `count` months later (earlier when negative) on the same day
    /// of the month, or the month's last day when it is shorter (January 31
    /// plus one month is February 28 or 29).
    public func adding(months count: Int, keepingDay anchorDay: Int? = nil) -> CivilDate {
        let monthIndex = year * 12 + (month - 1) + count
        let (newYear, newMonth) = (monthIndex / 12, monthIndex % 12 + 1)
        return CivilDate(year: newYear, month: newMonth,
                         day: min(anchorDay ?? day, CivilDate.daysIn(month: newMonth, year: newYear)))
    }

    /// Whole days from this date to `other` (negative when `other` is earlier).
    public func days(until other: CivilDate) -> Int {
        Int(other.daysSince1970 - daysSince1970)
    }

    /// `YYYY-MM-DD`. Built from bytes: lists format thousands of these.
    public var description: String {
        guard (0...9999).contains(year) else { return "\(year)-" + twoDigits(month) + "-" + twoDigits(day) }
        let digits: [UInt8] = [
            UInt8(48 + year / 1000), UInt8(48 + year / 100 % 10), UInt8(48 + year / 10 % 10), UInt8(48 + year % 10), 45,
            UInt8(48 + month / 10 % 10), UInt8(48 + month % 10), 45, UInt8(48 + day / 10 % 10), UInt8(48 + day % 10),
        ]
        return String(decoding: digits, as: UTF8.self)
    }

    /// Earlier dates first.
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01, by Howard Hinnant's `days_from_civil`
    /// (http://howardhinnant.github.io/date_algorithms.html): pure arithmetic,
    /// no time zone, valid far beyond any due date.
    var daysSince1970: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSince1970` (Hinnant's `civil_from_days`).
    init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.init(year: Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0)), month: Int(month), day: Int(day))
    }
}

/// A wall-clock date and time with no time zone.
public struct CivilDateTime: Hashable, Sendable {
    /// The day.
    public var date: CivilDate
    /// 0 to 23.
    public var hour: Int
    /// 0 to 59.
    public var minute: Int
    /// 0 to 59.
    public var second: Int

    /// A wall-clock moment.
    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// `YYYY-MM-DD HH:MM`.
    public var minuteDescription: String {
        date.description + " " + twoDigits(hour) + ":" + twoDigits(minute)
    }
}

/// Converts between instants and the local wall calendar. Handed to date logic
/// so that it never reads the process's time zone behind its caller's back,
/// and so tests can fix one.
public protocol LocalCalendar: Sendable {
    /// What the local wall clock shows at `instant`.
    func civil(at instant: Timestamp) -> CivilDateTime

    /// The instant at which the local wall clock shows `dateTime`. A time that a
    /// daylight-saving change skips is moved forward past the gap, as `mktime` does.
    func instant(of dateTime: CivilDateTime) -> Timestamp
}

extension LocalCalendar {
    /// The local date at `instant`.
    public func date(at instant: Timestamp) -> CivilDate { civil(at: instant).date }

    /// The first instant of `date` (local midnight).
    public func startOfDay(_ date: CivilDate) -> Timestamp {
        instant(of: CivilDateTime(date: date))
    }

    /// The last whole second of `date` (23:59:59 local).
    public func endOfDay(_ date: CivilDate) -> Timestamp {
        instant(of: CivilDateTime(date: date, hour: 23, minute: 59, second: 59))
    }
}

/// The process's local time zone (`TZ`, else /etc/localtime) through Glibc's
/// `localtime_r` and `mktime`.
public struct SystemLocalCalendar: LocalCalendar {
    /// Reads the zone (`tzset`) when `TZ` has changed since the last
    /// calendar was made, else at most once a second: a changed `TZ` is
    /// seen at once, a changed /etc/localtime within a second.
    public init() {
        SystemLocalCalendar.zone.readIfDue()
    }

    /// glibc's tzset, with TZ unset, stats /etc/localtime on every call to
    /// see whether it changed; the server makes a calendar or two per
    /// request, and those stats were a twentieth of a small request under
    /// perf.
    private static let zone = ZoneReading()

    private final class ZoneReading: @unchecked Sendable {
        private let lock = Monitor()
        private var lastTZ: String?
        private var lastRead: MonotonicTime?

        func readIfDue() {
            let tz = getenv("TZ").map { String(cString: $0) }
            let now = MonotonicTime.now()
            let isDue = lock.locked { () -> Bool in
                guard let lastRead, tz == lastTZ, now.milliseconds(since: lastRead) < 1000 else {
                    (lastTZ, lastRead) = (tz, now)
                    return true
                }
                return false
            }
            if isDue { tzset() }
        }
    }

    public func civil(at instant: Timestamp) -> CivilDateTime {
        // Clamped to the years 1 to 9999: a stored time from a damaged row
        // (SQLite holds infinity) shows as an extreme date instead of trapping.
        var seconds = instant.clampedSeconds
        var parts = tm()
        localtime_r(&seconds, &parts)
        return CivilDateTime(
            date: CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday)),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    public func instant(of dateTime: CivilDateTime) -> Timestamp {
        Self.instantAwayFromTransitions(dateTime) ?? Self.instantByMktime(dateTime)
    }

    /// What mktime makes of `dateTime`: the slow way, right at every change
    /// of offset, and what the fast way is tested against.
    static func instantByMktime(_ dateTime: CivilDateTime) -> Timestamp {
        var parts = tm()
        parts.tm_year = Int32(dateTime.date.year - 1900)
        parts.tm_mon = Int32(dateTime.date.month - 1)
        parts.tm_mday = Int32(dateTime.date.day)
        parts.tm_hour = Int32(dateTime.hour)
        parts.tm_min = Int32(dateTime.minute)
        parts.tm_sec = Int32(dateTime.second)
        // -1: let mktime decide whether daylight-saving time is in force then.
        parts.tm_isdst = -1
        return Timestamp(secondsSince1970: Double(mktime(&parts)))
    }

    /// The instant of `dateTime` when the zone's offset from UTC is the same
    /// from a day before it to a day after it: there the wall time names
    /// exactly one instant, the one mktime gives, and `localtime_r` finds it
    /// with no file read. Nil near a change of offset (a daylight-saving
    /// gap or overlap), where mktime's own rules apply.
    ///
    /// mktime re-reads the zone on every call (glibc stats /etc/localtime
    /// when TZ is unset), and the server works out today's bounds on every
    /// request: those reads were a twentieth of a small request under perf.
    /// The zone itself is still read when a calendar is made (`init`).
    static func instantAwayFromTransitions(_ dateTime: CivilDateTime) -> Timestamp? {
        // Fields as a calendar shows them; anything else is mktime's to normalise.
        guard (1...9999).contains(dateTime.date.year), dateTime.date.isValid, (0...23).contains(dateTime.hour),
              (0...59).contains(dateTime.minute), (0...59).contains(dateTime.second) else { return nil }
        let wall = dateTime.date.daysSince1970 * 86_400
            + Int64(dateTime.hour * 3600 + dateTime.minute * 60 + dateTime.second)
        guard let offset = utcOffset(at: wall) else { return nil }
        let guess = wall - offset
        guard utcOffset(at: guess) == offset, utcOffset(at: guess - 86_400) == offset,
              utcOffset(at: guess + 86_400) == offset else { return nil }
        return Timestamp(secondsSince1970: Double(guess))
    }

    /// Seconds east of UTC in force at `seconds`, or nil when the C library
    /// cannot say (a time beyond its range).
    private static func utcOffset(at seconds: Int64) -> Int64? {
        var time = time_t(seconds)
        var parts = tm()
        guard localtime_r(&time, &parts) != nil else { return nil }
        return Int64(parts.tm_gmtoff)
    }
}

/// A zone at a fixed distance from UTC (no daylight-saving time): pure
/// arithmetic, for tests and for callers that know the offset.
public struct FixedOffsetCalendar: LocalCalendar {
    /// Seconds east of UTC, e.g. 32400 for Korea (UTC+9).
    public let offsetSeconds: Int

    /// A zone `offsetSeconds` east of UTC.
    public init(offsetSeconds: Int) {
        self.offsetSeconds = offsetSeconds
    }

    public func civil(at instant: Timestamp) -> CivilDateTime {
        let local = Int64(instant.clampedSeconds) + Int64(offsetSeconds)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondOfDay = Int(local - days * 86_400)
        return CivilDateTime(date: CivilDate(daysSince1970: days), hour: secondOfDay / 3600,
                             minute: secondOfDay % 3600 / 60, second: secondOfDay % 60)
    }

    public func instant(of dateTime: CivilDateTime) -> Timestamp {
        let seconds = dateTime.date.daysSince1970 * 86_400 + Int64(dateTime.hour * 3600 + dateTime.minute * 60
            + dateTime.second) - Int64(offsetSeconds)
        return Timestamp(secondsSince1970: Double(seconds))
    }
}

func twoDigits(_ value: Int) -> String {
    value < 10 && value >= 0 ? "0\(value)" : "\(value)"
}
