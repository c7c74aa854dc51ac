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
        let whole = clampedSeconds
        // A clamped (out-of-range or non-finite) value shows no fraction.
        let fraction = secondsSince1970.rounded(.down) == Double(whole) ? secondsSince1970 - Double(whole) : 0
        let millis = min(999, max(0, Int((fraction * 1000).rounded(.down))))
        // Written as 24 bytes at once: documents carry thousands of times,
        // and joining a dozen small strings for each was most of a list's cost.
        var seconds = whole
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        if (0...9999).contains(year) {
            var bytes = [UInt8](repeating: 0, count: 24)
            func put(_ value: Int, at offset: Int, digits: Int) {
                var value = value
                for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                    bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
            }
            put(year, at: 0, digits: 4)
            put(Int(parts.tm_mon) + 1, at: 5, digits: 2)
            put(Int(parts.tm_mday), at: 8, digits: 2)
            put(Int(parts.tm_hour), at: 11, digits: 2)
            put(Int(parts.tm_min), at: 14, digits: 2)
            put(Int(parts.tm_sec), at: 17, digits: 2)
            put(millis, at: 20, digits: 3)
            for (offset, character) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "."), (23, "Z")] as [(Int, Unicode.Scalar)] {
                bytes[offset] = UInt8(ascii: character)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let text = Timestamp(secondsSince1970: Double(whole)).rfc3339
        return String(text.dropLast()) + "." + String(repeating: "0", count: millis < 10 ? 2 : millis < 100 ? 1 : 0)
            + String(millis) + "Z"
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
