#if canImport(Glibc)
import Glibc
#endif

/// A point in wall-clock time: whole and fractional seconds since the Unix epoch, UTC.
/// memoapp stores times as this number; it renders them as RFC 3339 only at the edge.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.secondsSince1970 < rhs.secondsSince1970
    }

    public func adding(seconds: Double) -> Timestamp {
        Timestamp(secondsSince1970: secondsSince1970 + seconds)
    }

    /// RFC 3339 in UTC with whole seconds, e.g. `2026-11-29T13:24:04Z`.
    public var rfc3339: String {
        var seconds = clampedSeconds
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return pad4(Int(parts.tm_year) + 1900) + "-" + pad2(Int(parts.tm_mon) + 1) + "-"
            + pad2(Int(parts.tm_mday)) + "T" + pad2(Int(parts.tm_hour)) + ":" + pad2(Int(parts.tm_min))
            + ":" + pad2(Int(parts.tm_sec)) + "Z"
    }

    /// RFC 3339 in UTC with milliseconds (truncated, never rounded up into
    /// the next second), e.g. `2026-11-29T13:24:04.250Z`: the precision every
    /// JSON document shows, so that one value reads the same everywhere.
    public var rfc3339Milliseconds: String {
        withRFC3339Milliseconds { String(decoding: $0, as: UTF8.self) }
    }

    /// Hands `body` the 24 bytes of `rfc3339Milliseconds`, made on the stack:
    /// documents carry thousands of times, and a JSON writer copies them
    /// straight into its output with no String in between.
    public func withRFC3339Milliseconds<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes
        return try withUnsafeMutableBytes(of: &text) { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            writeRFC3339Milliseconds(to: bytes.baseAddress!)
            return try body(UnsafeBufferPointer(bytes))
        }
    }

    /// The byte count of `rfc3339Milliseconds`.
    static let rfc3339MillisecondsLength = 24

    /// Writes the 24 bytes of `rfc3339Milliseconds` at `bytes` (a JSON
    /// writer's own buffer: no copy in between).
    func writeRFC3339Milliseconds(to bytes: UnsafeMutablePointer<UInt8>) {
        let whole = clampedSeconds
        // A clamped (out-of-range or non-finite) value shows no fraction.
        let fraction = secondsSince1970.rounded(.down) == Double(whole) ? secondsSince1970 - Double(whole) : 0
        let millis = min(999, max(0, Int((fraction * 1000).rounded(.down))))
        // Worked out here rather than by gmtime_r, which takes glibc's time
        // zone lock on every call: the server's threads queued on it.
        let parts = Timestamp.utcParts(of: Int64(whole))
        func two(_ value: Int, at offset: Int) {
            bytes[offset] = UInt8(truncatingIfNeeded: 0x30 + value / 10)
            bytes[offset + 1] = UInt8(truncatingIfNeeded: 0x30 + value % 10)
        }
        // clampedSeconds keeps the year within 1...9999: four digits.
        two(parts.year / 100, at: 0)
        two(parts.year % 100, at: 2)
        two(parts.month, at: 5)
        two(parts.day, at: 8)
        two(parts.hour, at: 11)
        two(parts.minute, at: 14)
        two(parts.second, at: 17)
        bytes[20] = UInt8(truncatingIfNeeded: 0x30 + millis / 100)
        two(millis % 100, at: 21)
        bytes[4] = UInt8(ascii: "-")
        bytes[7] = UInt8(ascii: "-")
        bytes[10] = UInt8(ascii: "T")
        bytes[13] = UInt8(ascii: ":")
        bytes[16] = UInt8(ascii: ":")
        bytes[19] = UInt8(ascii: ".")
        bytes[23] = UInt8(ascii: "Z")
    }

    /// The UTC calendar date and time of `seconds` since 1970 in the
    /// proleptic Gregorian calendar, as gmtime_r gives it (Howard Hinnant's
    /// days-to-civil algorithm, http://howardhinnant.github.io/date_algorithms.html).
    static func utcParts(of seconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let shifted = days + 719_468  // days since 0000-03-01
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // 0 is March
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
    }

    /// Local date and time for people, e.g. `2026-11-29 22:24`.
    public var localMinute: String {
        var seconds = clampedSeconds
        var parts = tm()
        localtime_r(&seconds, &parts)
        return pad4(Int(parts.tm_year) + 1900) + "-" + pad2(Int(parts.tm_mon) + 1) + "-"
            + pad2(Int(parts.tm_mday)) + " " + pad2(Int(parts.tm_hour)) + ":" + pad2(Int(parts.tm_min))
    }
}

/// Where "now" comes from. Injected so that pure logic and tests never read the
/// real clock behind their caller's back.
public protocol WallClock: Sendable {
    func now() -> Timestamp
}

/// The system's real-time clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSince1970: Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9)
    }
}

extension Timestamp {
    /// 0001-01-01T00:00:00Z, the earliest time memoapp shows and stores.
    public static let earliestSupported = Timestamp(secondsSince1970: -62_135_596_800)
    /// 9999-12-31T23:59:59Z, the last whole second memoapp shows and stores.
    public static let latestSupported = Timestamp(secondsSince1970: 253_402_300_799)

    /// Whether the time lies in the years 1 to 9999 (UTC), which every
    /// rendering (RFC 3339's four-digit year, the local calendar) handles.
    /// A time from outside (an import, a restore) must be one to be stored.
    public var isSupported: Bool {
        secondsSince1970 >= Timestamp.earliestSupported.secondsSince1970
            && secondsSince1970 < Timestamp.latestSupported.secondsSince1970 + 1
    }

    /// Whole seconds within years 1 to 9999, so a damaged stored value (SQLite
    /// can hold infinity) prints as an extreme date instead of trapping.
    public var clampedSeconds: time_t {
        let earliest = Timestamp.earliestSupported.secondsSince1970
        let latest = Timestamp.latestSupported.secondsSince1970
        guard secondsSince1970.isFinite else { return time_t(secondsSince1970 > 0 ? latest : earliest) }
        return time_t(min(max(secondsSince1970, earliest), latest).rounded(.down))
    }
}

// MARK: - Formatting helpers

func pad2(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}

func pad4(_ value: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
