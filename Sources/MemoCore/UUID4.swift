#if canImport(Glibc)
import Glibc
#endif

/// Random (version 4) UUIDs in their lowercase text form, e.g.
/// `3f2b8c1e-9d4a-4e6f-b1c2-7a8d9e0f1a2b`: the identity an item keeps across
/// export and import, so a second import of the same file adds nothing.
///
/// Made from getrandom(2) without loading Foundation; one costs two system
/// calls and a few dozen byte operations, so `todo add` does not notice.
public enum UUID4 {
    /// A new random UUID (RFC 9562 version 4, variant 10xx), lowercase.
    public static func random() -> String {
        var bytes = randomBytes()
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return format(bytes)
    }

    /// Whether `text` has the canonical form: 8-4-4-4-12 lowercase hex digits.
    /// Any version is accepted, so an importer may derive a stable uid from
    /// another tool's identity (Taskwarrior's own UUID, a hash of a line).
    public static func isWellFormed(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 36 else { return false }
        for (offset, byte) in utf8.enumerated() {
            if offset == 8 || offset == 13 || offset == 18 || offset == 23 {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) else { return false }
            }
        }
        return true
    }

    /// The uid a new item gets: `given` when an importer carries one, else a
    /// new random UUID.
    /// - Throws: `MemoError(.badInput)` when `given` is not well formed.
    public static func uid(_ given: String?) throws -> String {
        guard let given else { return random() }
        guard isWellFormed(given) else {
            throw MemoError(.badInput, en: "'\(given)' is not a uid (a UUID: 8-4-4-4-12 lowercase hex digits)",
                            ko: "'\(given)'은(는) uid가 아닙니다 (UUID: 소문자 16진수 8-4-4-4-12자리)")
        }
        return given
    }

    // MARK: - Private

    /// 16 bytes from the standard library's system generator, which on
    /// Linux reads getrandom(2) (Glibc's module does not offer the call).
    private static func randomBytes() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 16)
        for half in 0..<2 {
            var word = generator.next()
            withUnsafeBytes(of: &word) { raw in
                for index in 0..<8 { bytes[half * 8 + index] = raw[index] }
            }
        }
        return bytes
    }

    /// The 16 bytes as `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`, lowercase (also
    /// for the uids `DerivedUID` makes).
    static func format(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension JSON {
    /// An item's uid, or null for a row inserted by hand that has none yet.
    public static func uid(_ value: String) -> JSON { value.isEmpty ? .null : .string(value) }
}
