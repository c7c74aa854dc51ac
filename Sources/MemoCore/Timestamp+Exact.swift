/// RFC 3339 that keeps every bit of a stored time, for export and import.
///
/// `rfc3339` shows whole seconds, which loses the fraction memoapp stores.
/// `exactRFC3339` writes the fraction with the digits of the shortest decimal
/// that reads back as the same Double (Swift prints that decimal), so
/// `Timestamp(rfc3339:)` of it gives the stored number bit for bit:
/// 1795958644.1234567 is `2026-11-29T13:24:04.1234567Z`. Reading goes through
/// the decimal text, never through floating-point sums, so nothing is rounded
/// twice.
extension Timestamp {
    /// RFC 3339 in UTC with the fraction it needs to be exact, e.g.
    /// `2026-11-29T13:24:04.25Z`; whole seconds have none. A time outside the
    /// years 1 to 9999 (only a damaged database holds one) is clamped as
    /// `rfc3339` clamps it, and then it is not exact.
    public var exactRFC3339: String {
        guard let (seconds, fraction) = ExactTime.split(secondsSince1970) else { return rfc3339 }
        let whole = Timestamp(secondsSince1970: Double(seconds)).rfc3339
        guard !fraction.isEmpty else { return whole }
        return String(whole.dropLast()) + "." + fraction + "Z"
    }

    /// Reads an RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS`, an optional
    /// fraction of up to 400 digits (enough for any Double), then `Z` or an offset `±HH:MM`
    /// (`t` and `z` in lower case too). Nil for anything else, including
    /// impossible dates (February 30), hour 24 and leap second 60, which
    /// memoapp never writes.
    public init?(rfc3339 text: String) {
        guard let value = ExactTime.parse(Array(text.utf8)) else { return nil }
        self.init(secondsSince1970: value)
    }
}

extension JSON {
    /// A time as exact RFC 3339 (see `Timestamp.exactRFC3339`).
    public static func exactTime(_ value: Timestamp) -> JSON { .string(value.exactRFC3339) }

    /// An exact time, or null.
    public static func exactTime(_ value: Timestamp?) -> JSON { value.map(exactTime) ?? .null }
}

// MARK: - Private

enum ExactTime {
    /// Seconds since 1970 of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let earliest: Int64 = -62_135_596_800
    static let latest: Int64 = 253_402_300_799

    /// The whole seconds (rounded down) and the fraction's digits of `value`'s
    /// shortest round-trip decimal, or nil when it is not a finite time in
    /// the years 1 to 9999.
    static func split(_ value: Double) -> (seconds: Int64, fraction: String)? {
        guard value.isFinite, let decimal = Decimal(value) else { return nil }
        guard decimal.integer.count <= 12, let magnitude = Int64(decimal.integer) else { return nil }
        let seconds: Int64
        let fraction: String
        if !decimal.isNegative || decimal.fraction.isEmpty {
            seconds = decimal.isNegative ? -magnitude : magnitude
            fraction = decimal.fraction
        } else {
            // -12.25 is 13 seconds before the epoch plus 0.75: the fraction
            // is the digits' complement to 1, worked out on the digits.
            seconds = -magnitude - 1
            fraction = complement(decimal.fraction)
        }
        guard seconds >= earliest, seconds <= latest else { return nil }
        return (seconds, fraction)
    }

    /// The value of an RFC 3339 text, or nil.
    static func parse(_ bytes: [UInt8]) -> Double? {
        var reader = Reader(bytes: bytes)
        guard let year = reader.number(digits: 4), reader.skip("-"),
              let month = reader.number(digits: 2), reader.skip("-"),
              let day = reader.number(digits: 2), reader.skip("T") || reader.skip("t"),
              let hour = reader.number(digits: 2), reader.skip(":"),
              let minute = reader.number(digits: 2), reader.skip(":"),
              let second = reader.number(digits: 2) else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59 else { return nil }
        var fraction = ""
        if reader.skip(".") {
            fraction = reader.digits()
            guard !fraction.isEmpty, fraction.count <= 400 else { return nil }
        }
        var offset: Int64 = 0
        if reader.skip("Z") || reader.skip("z") {
            offset = 0
        } else if let sign = reader.sign(), let offsetHours = reader.number(digits: 2), reader.skip(":"),
                  let offsetMinutes = reader.number(digits: 2), offsetHours <= 23, offsetMinutes <= 59 {
            offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
        } else {
            return nil
        }
        guard reader.isAtEnd else { return nil }
        let seconds = daysFromCivil(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
            + second - offset
        return value(seconds: seconds, fraction: fraction)
    }

    /// `seconds` (whole, rounded down) plus 0.`fraction`, through its decimal text.
    static func value(seconds: Int64, fraction: String) -> Double? {
        let significant = fraction.utf8.contains { $0 != UInt8(ascii: "0") }
        if !significant { return Double(seconds) }
        if seconds >= 0 { return Double("\(seconds).\(fraction)") }
        // -13 + 0.75 is -(12 + 0.25).
        return Double("-\(-seconds - 1).\(complement(fraction))")
    }

    /// 1 − 0.`digits`, as digits of the same length (the last nonzero digit
    /// from 10, those before it from 9); `digits` must not be all zeros.
    static func complement(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        guard let last = bytes.lastIndex(where: { $0 != UInt8(ascii: "0") }) else { return digits }
        for index in 0..<last { bytes[index] = UInt8(ascii: "9") - (bytes[index] - UInt8(ascii: "0")) }
        bytes[last] = UInt8(ascii: "0") + 10 - (bytes[last] - UInt8(ascii: "0"))
        return String(decoding: bytes[...last], as: UTF8.self)
    }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
    /// `days_from_civil`, http://howardhinnant.github.io/date_algorithms.html).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// A Double's shortest round-trip decimal as plain digits: `1e-05` is
    /// integer "0", fraction "00001".
    struct Decimal {
        var isNegative: Bool
        var integer: String
        var fraction: String

        init?(_ value: Double) {
            var text = Substring(value.description)
            isNegative = text.first == "-"
            if isNegative { text = text.dropFirst() }
            var exponent = 0
            if let mark = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
                guard let parsed = Int(text[text.index(after: mark)...]) else { return nil }
                exponent = parsed
                text = text[..<mark]
            }
            let point = text.firstIndex(of: ".")
            let digits = Array(text.utf8.filter { $0 != UInt8(ascii: ".") })
            guard !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            let pointPosition = (point.map { text.distance(from: text.startIndex, to: $0) } ?? digits.count) + exponent
            var integerDigits: [UInt8]
            var fractionDigits: [UInt8]
            if pointPosition <= 0 {
                integerDigits = []
                fractionDigits = [UInt8](repeating: UInt8(ascii: "0"), count: -pointPosition) + digits
            } else if pointPosition >= digits.count {
                integerDigits = digits + [UInt8](repeating: UInt8(ascii: "0"), count: pointPosition - digits.count)
                fractionDigits = []
            } else {
                integerDigits = Array(digits[..<pointPosition])
                fractionDigits = Array(digits[pointPosition...])
            }
            while integerDigits.first == UInt8(ascii: "0") { integerDigits.removeFirst() }
            while fractionDigits.last == UInt8(ascii: "0") { fractionDigits.removeLast() }
            integer = integerDigits.isEmpty ? "0" : String(decoding: integerDigits, as: UTF8.self)
            fraction = String(decoding: fractionDigits, as: UTF8.self)
        }
    }

    /// Reads fixed-width fields from the front of the text.
    struct Reader {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func number(digits count: Int) -> Int64? {
            guard position + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<position + count] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            position += count
            return value
        }

        mutating func digits() -> String {
            let start = position
            while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func sign() -> Int64? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }
}
