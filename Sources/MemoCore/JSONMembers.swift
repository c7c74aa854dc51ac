/// The members of one JSON object, handed over one at a time by code that
/// states a document's shape once (the wire format's encoders), and made
/// into whatever the conformer makes: `JSONObjectBuilder` a `JSON` value
/// (to change, compare or nest), `JSONObjectWriter` the object's compact
/// serialization, written straight into bytes.
///
/// The two exist because a list of to-dos built as values and then walked
/// to bytes spent most of the server's time on the values: an array of
/// members per item, a string per time, all freed again a moment later.
/// Written through the same shape, both give the same bytes
/// (`JSONObjectWriter` uses `JSON`'s own escaping and number writing).
///
/// Keys are literals of the program's own: plain snake_case ASCII, which no
/// serializer escapes.
public protocol JSONMemberSink {
    mutating func add(_ key: StaticString, _ value: JSON)
    mutating func add(_ key: StaticString, int value: Int64)
    /// A string, or null for nil.
    mutating func add(_ key: StaticString, string value: String?)
    mutating func add(_ key: StaticString, bool value: Bool)
    /// A time as every document shows it (`JSON.time`), or null for nil.
    mutating func add(_ key: StaticString, time value: Timestamp?)
    /// An array of strings (`JSON.strings`).
    mutating func add(_ key: StaticString, strings values: [String])
}

/// Collects members into a `JSON.object`.
public struct JSONObjectBuilder: JSONMemberSink {
    public private(set) var members: [(String, JSON)] = []

    public init(capacity: Int = 0) {
        members.reserveCapacity(capacity)
    }

    /// The object of the members added so far, in their order.
    public var object: JSON { .object(members) }

    public mutating func add(_ key: StaticString, _ value: JSON) { members.append((key.description, value)) }
    public mutating func add(_ key: StaticString, int value: Int64) { add(key, .int(value)) }
    public mutating func add(_ key: StaticString, string value: String?) { add(key, .optional(value)) }
    public mutating func add(_ key: StaticString, bool value: Bool) { add(key, .bool(value)) }
    public mutating func add(_ key: StaticString, time value: Timestamp?) { add(key, .optional(value)) }
    public mutating func add(_ key: StaticString, strings values: [String]) { add(key, .strings(values)) }
}

/// Writes one object's compact serialization into a `JSONByteWriter` as
/// its members come: exactly `JSON.object(members).serializedBytes`.
public struct JSONObjectWriter: JSONMemberSink {
    // Valid for the span of `write`, which alone makes writers.
    private let out: UnsafeMutablePointer<JSONByteWriter>
    private var isFirst = true
    /// The last time this object wrote and where its quoted text starts in
    /// the output: an item's times often repeat (a to-do never edited was
    /// updated when it was created), and a copy of those bytes costs less
    /// than working the date out again.
    private var lastTime: (secondsSince1970: Double, offset: Int)?

    private init(out: UnsafeMutablePointer<JSONByteWriter>) {
        self.out = out
    }

    /// Appends to `output` the object whose members `body` adds.
    public static func write(to output: inout JSONByteWriter, _ body: (inout JSONObjectWriter) -> Void) {
        withUnsafeMutablePointer(to: &output) { pointer in
            var writer = JSONObjectWriter(out: pointer)
            pointer.pointee.append(UInt8(ascii: "{"))
            body(&writer)
            pointer.pointee.append(UInt8(ascii: "}"))
        }
    }

    public mutating func add(_ key: StaticString, _ value: JSON) {
        writeKey(key)
        value.write(to: &out.pointee)
    }

    public mutating func add(_ key: StaticString, int value: Int64) {
        writeKey(key)
        JSON.writeInteger(value, to: &out.pointee)
    }

    public mutating func add(_ key: StaticString, string value: String?) {
        writeKey(key)
        if let value { JSON.writeEscaped(value, to: &out.pointee) } else { out.pointee.append(ascii: "null") }
    }

    public mutating func add(_ key: StaticString, bool value: Bool) {
        writeKey(key)
        out.pointee.append(ascii: value ? "true" : "false")
    }

    public mutating func add(_ key: StaticString, time value: Timestamp?) {
        writeKey(key)
        guard let value else { return out.pointee.append(ascii: "null") }
        // Equal seconds make equal text (0 and -0 alike).
        if let last = lastTime, last.secondsSince1970 == value.secondsSince1970 {
            return out.pointee.appendCopy(from: last.offset, count: Timestamp.rfc3339MillisecondsLength + 2)
        }
        lastTime = (value.secondsSince1970, out.pointee.count)
        out.pointee.appendQuotedTime(value)
    }

    public mutating func add(_ key: StaticString, strings values: [String]) {
        writeKey(key)
        out.pointee.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { out.pointee.append(UInt8(ascii: ",")) }
            JSON.writeEscaped(value, to: &out.pointee)
        }
        out.pointee.append(UInt8(ascii: "]"))
    }

    // MARK: - Private

    @inline(__always)
    private mutating func writeKey(_ key: StaticString) {
        assert(key.withUTF8Buffer { name in
            name.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        }, "a member key must be plain ASCII that needs no escape")
        out.pointee.appendMemberKey(key, isFirst: isFirst)
        isFirst = false
    }
}
