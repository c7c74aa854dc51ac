import CSndFile
import MemoCore

/// Copies frames from a decoder (libsndfile's or FFmpeg's, or raw input) to a
/// libsndfile handle, in blocks, through integers when the source's samples
/// are integers (exact) and through floats otherwise.
enum FrameCopier {
    static let blockFrames = 8192

    /// Copies up to `limit` frames (all when nil) from the reader's position.
    /// Returns the frames copied; throws when a write falls short.
    @discardableResult
    static func copy(from reader: any FrameReader, to writer: SoundFile, limit: Int64? = nil,
                     throughIntegers: Bool, shouldStop: () -> Bool = { false },
                     progress: ((Int64) -> Void)? = nil) throws -> Int64 {
        if throughIntegers {
            return try copyBlocks(of: Int32.self, from: reader, to: writer, limit: limit, shouldStop: shouldStop,
                                  progress: progress, read: reader.readFrames, write: writer.writeFrames)
        }
        // An encoder that stores integers or lossy audio cannot take what is not a
        // number: LAME aborts the process on NaN or an infinity (or a huge value
        // it scales into one), FLAC's encoder refuses the block. Float targets
        // store the samples as they are.
        let sanitizes = !writer.hasFloatSamples
        let channels = reader.channels
        return try copyBlocks(of: Float.self, from: reader, to: writer, limit: limit, shouldStop: shouldStop,
                              progress: progress, read: { buffer, count in
                                  let read = reader.readFrames(buffer, count: count)
                                  if sanitizes && read > 0 { makeEncodable(buffer, count: read * channels) }
                                  return read
                              }, write: writer.writeFrames)
    }

    /// Full-scale samples any encoder takes: NaN becomes silence, anything
    /// beyond full scale (infinities included) full scale, which is what the
    /// stored waveform shows for them and what libsndfile's own clipping
    /// makes of finite overs for integer targets.
    static func makeEncodable(_ samples: UnsafeMutablePointer<Float>, count: Int) {
        for index in 0..<count {
            let value = samples[index]
            if value.isNaN {
                samples[index] = 0
            } else if value > 1 {
                samples[index] = 1
            } else if value < -1 {
                samples[index] = -1
            }
        }
    }

    /// The block loop, once for any sample type libsndfile reads and writes.
    private static func copyBlocks<Sample>(
        of _: Sample.Type, from reader: any FrameReader, to writer: SoundFile, limit: Int64?, shouldStop: () -> Bool,
        progress: ((Int64) -> Void)?, read: (UnsafeMutablePointer<Sample>, Int) -> Int,
        write: (UnsafePointer<Sample>, Int) -> Int
    ) throws -> Int64 {
        let buffer = UnsafeMutablePointer<Sample>.allocate(capacity: blockFrames * reader.channels)
        defer { buffer.deallocate() }
        var copied: Int64 = 0
        while limit.map({ copied < $0 }) ?? true, !shouldStop() {
            let wanted = Int(min(Int64(blockFrames), (limit ?? Int64.max) - copied))
            let count = read(buffer, wanted)
            guard count > 0 else { break }
            try check(write(buffer, count), count, writer)
            copied += Int64(count)
            progress?(copied)
        }
        return copied
    }

    /// Copies the metadata strings libsndfile knows (title, artist, …).
    static func copyStrings(from reader: any AudioDecoder, to writer: SoundFile) {
        for (type, value) in reader.allStrings.sorted(by: { $0.key < $1.key }) { writer.setString(type, value) }
    }

    private static func check(_ written: Int, _ wanted: Int, _ writer: SoundFile) throws {
        guard written == wanted else {
            let reason = writer.writeFailureReason(written: written, wanted: wanted)
            throw MemoError(.storage, en: "writing audio failed: \(reason)", ko: "오디오를 쓰지 못했습니다: \(reason)")
        }
    }
}
