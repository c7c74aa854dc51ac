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
        if ascii.hasPointerRepresentation && ascii.utf8CodeUnitCount == 1 {
            append(ascii.utf8Start.pointee)
        } else {
            ascii.withUTF8Buffer { append(utf8: $0) }
        }
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
