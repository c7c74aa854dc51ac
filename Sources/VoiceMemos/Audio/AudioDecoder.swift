#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Frames read a block at a time, interleaved: what `FrameCopier` copies from.
protocol FrameReader: AnyObject {
    var channels: Int { get }
    func readFrames(_ buffer: UnsafeMutablePointer<Int16>, count: Int) -> Int
    func readFrames(_ buffer: UnsafeMutablePointer<Int32>, count: Int) -> Int
    func readFrames(_ buffer: UnsafeMutablePointer<Float>, count: Int) -> Int
}

/// A source opened for decoding over a `TeeStream`, whichever library
/// decodes it: libsndfile (`SndFileDecoder`) for everything it reads, FFmpeg
/// (`FFmpegDecoder`) for AAC and ALAC in MP4 and AAC in CAF, which it does not. The
/// scan, export, trim and playback read both the same way, so a memo of
/// either kind gets the same checks, peaks and conversions.
///
/// Samples read as integers or floats follow libsndfile's scaling (16-bit
/// full scale is ±32768, `x / 32768` as a float), whoever decodes.
protocol AudioDecoder: FrameReader {
    /// The stream the source is read through (checksum, copy, high water).
    var stream: TeeStream { get }
    /// The format code memoapp records (see `AudioFormat`).
    var format: Int32 { get }
    var sampleRate: Int { get }
    /// True when the samples are floats that `readFrames` into `Int16` would
    /// cast rather than scale (libsndfile's float and double WAV, CAF…).
    var hasFloatSamples: Bool { get }
    /// The frame count the source states, which a shorter decode contradicts
    /// (truncation); nil when it states none.
    var promisedFrames: Int64? { get }
    /// Every metadata string the source has, by libsndfile's `SF_STR_*` type.
    var allStrings: [Int32: String] { get }
    /// Why the decode stopped before the end of the audio, in the library's
    /// words; nil while it has not. Read it before `finish()`.
    var decodeFailure: String? { get }
    /// True when the library noticed that the source holds less audio than
    /// its header says (libsndfile's log). Read it before `finish()`.
    var isTruncated: Bool { get }
    /// Moves to `frame`; false when the decoder cannot seek (then read up to it).
    func seek(toFrame frame: Int64) -> Bool
    /// Ends the decode, then reads whatever the decoder left unread into the
    /// checksum and the copy. Throws the source's or the copy's failure.
    func finish() throws
}

extension AudioDecoder {
    /// The metadata string of `type` (`SF_STR_TITLE`, …), when the source has one.
    func string(_ type: Int32) -> String? { allStrings[type] }

    /// Bytes of the source read so far (for progress).
    var bytesRead: Int64 { stream.highWater }

    /// Reads and drops `frames` frames; returns how many there were.
    func skip(frames: Int64) -> Int64 {
        let block = 4096
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block * channels)
        defer { buffer.deallocate() }
        var skipped: Int64 = 0
        while skipped < frames {
            let count = readFrames(buffer, count: Int(min(Int64(block), frames - skipped)))
            if count <= 0 { break }
            skipped += Int64(count)
        }
        return skipped
    }
}

/// Chooses the library for a source from its first bytes.
enum AudioDecoders {
    /// Opens `stream` for decoding; `.failure` with the reason when no
    /// library reads it. Throws when the library it needs cannot be loaded.
    ///
    /// An MP4 (`ftyp` box first: .m4a, .mp4, what iPhones and Safari record)
    /// goes to FFmpeg straight away, since libsndfile reads no MP4. A CAF goes
    /// to libsndfile first (it reads PCM and ALAC in CAF) and to FFmpeg only
    /// when libsndfile refuses it (AAC in CAF). Everything else is
    /// libsndfile's alone: FFmpeg never probes arbitrary bytes, so what memoapp
    /// accepts, and how it judges a broken file, stays what it was.
    static func open(_ stream: TeeStream) throws -> Result<any AudioDecoder, SoundFileError> {
        switch container(of: stream) {
        case .mp4:
            return try FFmpegDecoder.open(stream, container: .mp4).map { $0 as any AudioDecoder }
        case .caf:
            if case let .success(decoder) = try SndFileDecoder.open(stream) { return .success(decoder) }
            return try FFmpegDecoder.open(stream, container: .caf).map { $0 as any AudioDecoder }
        case nil:
            return try SndFileDecoder.open(stream).map { $0 as any AudioDecoder }
        }
    }

    /// The containers FFmpeg is asked to read.
    enum Container {
        case mp4, caf

        /// FFmpeg's name for its demuxer.
        var demuxer: String {
            switch self {
            case .mp4: return "mov"
            case .caf: return "caf"
            }
        }
    }

    /// The container the first bytes name, when it is one FFmpeg may read.
    static func container(of stream: TeeStream) -> Container? {
        var head = [UInt8](repeating: 0, count: 8)
        let count = head.withUnsafeMutableBytes { stream.read(into: $0.baseAddress!, count: 8) }
        _ = stream.seek(0, whence: SEEK_SET)
        guard count == 8 else { return nil }
        if head[4..<8].elementsEqual("ftyp".utf8) { return .mp4 }
        if head[0..<4].elementsEqual("caff".utf8) { return .caf }
        return nil
    }
}
