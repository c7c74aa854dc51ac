/// Whether an MP4's boxes or a CAF's chunks, at the top level, end where the
/// file ends. FFmpeg decodes what it finds and tolerates a file cut inside
/// its index or its trailing metadata when all the audio is still there; a
/// cut file is refused whatever part of it is missing, as a WAV whose header
/// promises more than it holds is. Only the headers of the top-level boxes
/// are read: ISO/IEC 14496-12 §4.2 (a 32-bit size, 1 for a 64-bit size after
/// the type, 0 for "to the end of the file"), and Apple's CAF specification
/// (a 12-byte file header, then chunks of a 4-byte type and a 64-bit size,
/// -1 for a data chunk that runs to the end).
enum ContainerLayout {
    /// More top-level boxes than any real file has: the walk stops there.
    static let maximumBoxes = 10_000

    /// True when the boxes run past the end of `source` or stop short of it,
    /// or cannot be read.
    static func isCut(_ source: ByteSource, container: AudioDecoders.Container) -> Bool {
        switch container {
        case .mp4: return walk(source, from: 0, headerSize: 8) { header in
            let size = header.bigEndian(at: 0, count: 4)
            switch size {
            case 0: return .toTheEnd
            case 1: return header.count >= 16 ? .size(header.bigEndian(at: 8, count: 8), minimum: 16) : .malformed
            default: return .size(size, minimum: 8)
            }
        }
        case .caf: return walk(source, from: 8, headerSize: 12) { header in
            let size = header.bigEndian(at: 4, count: 8)
            if size == UInt64.max { return header.prefix(4).elementsEqual("data".utf8) ? .toTheEnd : .malformed }
            return size > UInt64(Int64.max - 12) ? .malformed : .size(size + 12, minimum: 12)
        }
        }
    }

    // MARK: - Private

    private enum Box {
        case size(UInt64, minimum: UInt64)
        case toTheEnd
        case malformed
    }

    private static func walk(_ source: ByteSource, from start: Int64, headerSize: Int,
                             box: ([UInt8]) -> Box) -> Bool {
        let length = source.length
        var offset = start
        var header = [UInt8](repeating: 0, count: 16)
        for _ in 0..<maximumBoxes {
            if offset == length { return false }
            guard let count = try? header.withUnsafeMutableBytes({ try source.read(at: offset, into: $0.baseAddress!, count: 16) }),
                  count >= headerSize else { return true }
            switch box(Array(header.prefix(count))) {
            case .toTheEnd: return false
            case .malformed: return true
            case let .size(size, minimum):
                guard size >= minimum, size <= UInt64(length - offset) else { return true }
                offset += Int64(size)
            }
        }
        return true
    }
}

private extension Array where Element == UInt8 {
    /// The big-endian number in `count` bytes at `offset`.
    func bigEndian(at offset: Int, count: Int) -> UInt64 {
        self[offset..<(offset + count)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
