/// A growing byte buffer that JSON documents are written into a piece at a
/// time: a list of to-dos is some two thousand small appends (keys, quotes,
/// digits, strings), and an `Array`'s append checks uniqueness and capacity
/// and goes through its generic sequence path on every one of them, a
/// fifth of the serialization under perf. Here an append is a bounds check
/// and a copy; the bytes become an `[UInt8]` once, at the end.
///
/// Only `collect` makes one, so the memory is always freed. The appends
/// are inlinable so that writers in other modules (the wire format's) copy
/// bytes in place rather than call across the module for each one.
public struct JSONByteWriter: JSONOutput {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var count = 0
    @usableFromInline var capacity: Int

    private init(capacity: Int) {
        self.capacity = max(64, capacity)
        start = .allocate(capacity: self.capacity)
    }

    /// The bytes `body` appends, starting with room for `capacity` of them.
    public static func collect(capacity: Int, _ body: (inout JSONByteWriter) -> Void) -> [UInt8] {
        var writer = JSONByteWriter(capacity: capacity)
        defer { writer.start.deallocate() }
        body(&writer)
        return Array(UnsafeBufferPointer(start: writer.start, count: writer.count))
    }

    @inlinable
    public mutating func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: 1) }
        start[count] = byte
        count += 1
    }

    @inlinable
    public mutating func append(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if bytes.count > capacity - count { grow(toHold: bytes.count) }
        (start + count).initialize(from: source, count: bytes.count)
        count += bytes.count
    }

    public mutating func append(text: String) {
        var text = text
        text.withUTF8 { append(utf8: $0) }
    }

    @inlinable
    public mutating func append(ascii: StaticString) {
        guard ascii.hasPointerRepresentation else { return ascii.withUTF8Buffer { append(utf8: $0) } }
        if ascii.utf8CodeUnitCount == 1 {
            append(ascii.utf8Start.pointee)
        } else {
            // The literal's bytes in place: `withUTF8Buffer` took a closure
            // call per `true`, `false` or `null`.
            append(utf8: UnsafeBufferPointer(start: ascii.utf8Start, count: ascii.utf8CodeUnitCount))
        }
    }

    /// Appends an object member's key as `"key":`, after a `,` unless it is
    /// the object's first: one capacity check and one copy for the lot, where
    /// four appends and a closure call were a twentieth of a to-do list's
    /// time under perf. The key is a literal that needs no escaping.
    @inlinable
    public mutating func appendMemberKey(_ key: StaticString, isFirst: Bool) {
        guard key.hasPointerRepresentation else {
            if !isFirst { append(UInt8(ascii: ",")) }
            append(UInt8(ascii: "\""))
            key.withUTF8Buffer { append(utf8: $0) }
            append(UInt8(ascii: "\""))
            return append(UInt8(ascii: ":"))
        }
        let length = key.utf8CodeUnitCount
        if length + 4 > capacity - count { grow(toHold: length + 4) }
        var next = start + count
        if !isFirst {
            next.pointee = UInt8(ascii: ",")
            next += 1
        }
        next.pointee = UInt8(ascii: "\"")
        (next + 1).initialize(from: key.utf8Start, count: length)
        next += 1 + length
        next[0] = UInt8(ascii: "\"")
        next[1] = UInt8(ascii: ":")
        count = next + 2 - start
    }

    /// Appends `time` as a JSON string of `rfc3339Milliseconds`, written in
    /// place (digits and `-T:.Z`: nothing JSON escapes).
    mutating func appendQuotedTime(_ time: Timestamp) {
        let length = Timestamp.rfc3339MillisecondsLength + 2
        if length > capacity - count { grow(toHold: length) }
        start[count] = UInt8(ascii: "\"")
        time.writeRFC3339Milliseconds(to: start + count + 1)
        start[count + length - 1] = UInt8(ascii: "\"")
        count += length
    }

    /// Appends again the `count` bytes written at `offset`.
    mutating func appendCopy(from offset: Int, count length: Int) {
        precondition(offset >= 0 && offset + length <= count, "a copy of bytes not written yet")
        if length > capacity - count { grow(toHold: length) }
        (start + count).initialize(from: start + offset, count: length)
        count += length
    }

    // MARK: - Private

    /// Room for `more` bytes after the ones held: at least twice the capacity.
    @usableFromInline
    mutating func grow(toHold more: Int) {
        let newCapacity = max(capacity * 2, count + more)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        larger.initialize(from: start, count: count)
        start.deallocate()
        start = larger
        capacity = newCapacity
    }
}
