/// Stricter reads for documents whose every key is known, such as memoapp's
/// export: a key that may hold null must still be there, and times and uids
/// are checked for their form, each failure naming the value's path.
extension JSONReader {
    /// Whether this object has `key` (null or not); false for a non-object.
    public func hasKey(_ key: String) -> Bool {
        guard case let .object(pairs) = value else { return false }
        return pairs.contains { $0.0 == key }
    }

    /// The member `key`, nil when it is null; an error when it is absent.
    public func nullable(_ key: String) throws -> JSONReader? {
        if let member = try member(key) { return member }
        guard hasKey(key) else {
            throw JSONReader(.null, path: path.appending(key: key), source: source)
                .failure(en: "missing (null is allowed)", ko: "값이 없습니다 (null은 허용)")
        }
        return nil
    }

    /// The string member `key`, nil when null; an error when absent.
    public func nullableString(_ key: String) throws -> String? { try nullable(key)?.string() }

    /// The number member `key`, nil when null; an error when absent.
    public func nullableDouble(_ key: String) throws -> Double? { try nullable(key)?.double() }

    /// The value as an RFC 3339 time (`Timestamp(rfc3339:)`) in the years 1
    /// to 9999 UTC (an offset can push a written year past them), or an error.
    public func time() throws -> Timestamp {
        let text = try string()
        guard let time = Timestamp(rfc3339: text) else {
            throw failure(en: "'\(String(text.prefix(64)))' is not an RFC 3339 time such as 2026-11-29T13:24:04Z",
                          ko: "'\(String(text.prefix(64)))'은(는) RFC 3339 시각(예: 2026-11-29T13:24:04Z)이 아닙니다")
        }
        guard time.isSupported else {
            throw failure(en: "'\(text)' is outside the years 1 to 9999 (UTC)",
                          ko: "'\(text)'이(가) 1년에서 9999년(UTC) 범위를 벗어납니다")
        }
        return time
    }

    /// The time member `key`; an error when absent, null or not a time.
    public func time(_ key: String) throws -> Timestamp {
        guard let member = try nonNullIfPresent(key, expecting: Localized(en: "a time", ko: "시각")) else {
            throw JSONReader(.null, path: path.appending(key: key), source: source)
                .failure(en: "expected a time, found null", ko: "시각이 필요한데 null입니다")
        }
        return try member.time()
    }

    /// The time member `key`, nil when null; an error when absent or not a time.
    public func nullableTime(_ key: String) throws -> Timestamp? { try nullable(key)?.time() }

    /// The value as a finite number, or an error.
    public func finiteDouble() throws -> Double {
        let number = try double()
        guard number.isFinite else { throw failure(en: "expected a finite number", ko: "유한한 숫자가 필요합니다") }
        return number
    }

    /// The integer member `key` within `range`; an error otherwise.
    public func int(_ key: String, in range: ClosedRange<Int64>) throws -> Int64 {
        let number = try int(key)
        guard range.contains(number) else {
            throw JSONReader(.int(number), path: path.appending(key: key), source: source)
                .failure(en: "\(number) is outside \(range.lowerBound)...\(range.upperBound)",
                         ko: "\(number)이(가) \(range.lowerBound)...\(range.upperBound) 범위를 벗어납니다")
        }
        return number
    }

    /// The largest integer every JSON reader takes exactly: 2^53 − 1. Readers
    /// that hold numbers as doubles (JavaScript's, the web page's) round any
    /// larger one, and would name another item.
    public static let largestExactInteger: Int64 = 9_007_199_254_740_991

    /// The id member `key`: 1 to `largestExactInteger`. Ids that high also
    /// leave SQLite room for every id after them (it stops at 2^63 − 1).
    public func id(_ key: String = "id") throws -> Int64 {
        try int(key, in: 1...JSONReader.largestExactInteger)
    }

    /// The uid member `key`: a UUID in lowercase text (`UUID4.isWellFormed`).
    public func uid(_ key: String = "uid") throws -> String {
        let text = try string(key)
        guard UUID4.isWellFormed(text) else {
            throw JSONReader(.string(text), path: path.appending(key: key), source: source)
                .failure(en: "'\(String(text.prefix(64)))' is not a uid (a UUID: 8-4-4-4-12 lowercase hex digits)",
                         ko: "'\(String(text.prefix(64)))'은(는) uid가 아닙니다 (UUID: 소문자 16진수 8-4-4-4-12자리)")
        }
        return text
    }

    /// The member `key` as an array of strings.
    public func strings(_ key: String) throws -> [String] {
        try elements(key).map { try $0.string() }
    }

    /// The reader of member `key` (present, not null), for checks of its own.
    /// An absent or null member is an error saying what was `expecting`
    /// ("a string", "a list of tags"), so the user knows what to write there.
    public func nonNull(_ key: String, expecting: Localized = Localized(en: "a value", ko: "값")) throws -> JSONReader {
        guard let member = try nonNullIfPresent(key, expecting: expecting) else {
            throw JSONReader(.null, path: path.appending(key: key), source: source)
                .failure(en: "expected \(expecting.en), found null", ko: "\(expecting.ko)이(가) 필요한데 null입니다")
        }
        return member
    }

    /// The member `key`, nil when null; when absent, an error that it is
    /// missing and what it should hold (null is no answer here).
    private func nonNullIfPresent(_ key: String, expecting: Localized) throws -> JSONReader? {
        guard hasKey(key) else {
            throw JSONReader(.null, path: path.appending(key: key), source: source)
                .failure(en: "missing: expected \(expecting.en)", ko: "없습니다: \(expecting.ko)이(가) 필요합니다")
        }
        return try member(key)
    }
}

/// Finds the second use of a key (an id, a uid) among a document's items, so
/// the error can name where the repeat is.
public struct DuplicateCheck<Key: Hashable> {
    private var seen: [Key: JSONPath] = [:]
    /// What the key is called in messages, e.g. "id".
    public let name: String

    /// A check of keys called `name`.
    public init(name: String) {
        self.name = name
    }

    /// Notes `key` read at `reader`; an error naming both places when it was seen before.
    public mutating func note(_ key: Key, at reader: JSONReader) throws {
        if let first = seen[key] {
            throw reader.failure(en: "the \(name) \(key) is used twice (first at \(first))",
                                 ko: "\(name) \(key)이(가) 두 번 쓰였습니다 (처음: \(first))")
        }
        seen[key] = reader.path
    }
}
