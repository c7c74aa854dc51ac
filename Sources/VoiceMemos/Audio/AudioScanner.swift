#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// What one pass over an audio file learns: everything a voice memo records
/// about its audio.
public struct ScannedAudio: Sendable {
    /// The format code: libsndfile's (major | subtype), with memoapp's own
    /// for MP4 and AAC, which libsndfile has none for (see `AudioFormat`).
    public let formatCode: Int32
    /// The container, e.g. "FLAC" (see `AudioFormat`).
    public let container: String
    /// The encoding, e.g. "PCM 16-bit".
    public let encoding: String
    /// The extension the library gives the stored file.
    public let fileExtension: String
    /// Frames per second.
    public let sampleRate: Int
    /// Samples per frame.
    public let channels: Int
    /// Frames that decoded (the true length, whatever the header said).
    public let frames: Int64
    /// The largest sample magnitude, 0...1 of full scale.
    public let peakLevel: Double
    /// The waveform, mixed to mono.
    public let peaks: WaveformPeaks
    /// XXH3-128 of the bytes read, as hex.
    public let checksum: String
    /// Bytes read (and copied).
    public let size: Int64
    /// The file's TITLE tag, when it has one.
    public let titleTag: String?

    /// Seconds.
    public var duration: Double { Double(frames) / Double(sampleRate) }
}

/// The probe and import path: decodes a whole source in one streaming pass
/// (see `TeeStream`) through libsndfile, or FFmpeg for the AAC and ALAC
/// libsndfile cannot read (see `AudioDecoders`), computing peaks and
/// checksum and copying the bytes, and refuses anything that does not
/// decode in full.
public enum AudioScanner {
    /// Frames per `sf_readf_short` call: memory stays flat in the length.
    static let blockFrames = 8192

    /// Reads `source` once. Bytes go to `copyDescriptor` when given.
    /// - Parameters:
    ///   - name: how messages name the source.
    ///   - copyPath: how messages name the copy (a write that fails).
    ///   - progress: called now and then with bytes read and the total.
    /// - Throws: `.badInput` for anything that is not audio libsndfile or
    ///   FFmpeg decodes in full; `.noInput` or `.storage` when reading or
    ///   copying fails; `.internalFailure` when the library the source needs
    ///   cannot be loaded.
    public static func scan(_ source: ByteSource, name: String, copyTo copyDescriptor: Int32? = nil,
                            copyPath: String = "the copy",
                            progress: ((Int64, Int64) -> Void)? = nil) throws -> ScannedAudio {
        try scan(source, name: name, copyTo: copyDescriptor, copyPath: copyPath, chunkSize: TeeStream.defaultChunkSize,
                 progress: progress)
    }

    static func scan(_ source: ByteSource, name: String, copyTo copyDescriptor: Int32?, copyPath: String = "the copy",
                     chunkSize: Int, progress: ((Int64, Int64) -> Void)?) throws -> ScannedAudio {
        guard source.length > 0 else {
            throw refusal(name, en: "the file is empty", ko: "빈 파일입니다")
        }
        let stream = TeeStream(source: source, copyDescriptor: copyDescriptor, copyPath: copyPath, chunkSize: chunkSize)
        let decoder: any AudioDecoder
        switch try AudioDecoders.open(stream) {
        case let .success(opened): decoder = opened
        case let .failure(error):
            if let failure = stream.failure { throw failure }
            throw unreadable(name, head: stream.head, reason: error.reason)
        }
        let maximumChannels = AudioLimits.channels.upperBound
        guard AudioLimits.channels.contains(decoder.channels) else {
            throw refusal(name, en: "the header claims \(decoder.channels) channels (at most \(maximumChannels) are accepted)",
                          ko: "헤더에 채널이 \(decoder.channels)개라고 적혀 있습니다 (최대 \(maximumChannels)개까지 받습니다)")
        }
        guard AudioLimits.sampleRates.contains(decoder.sampleRate) else {
            throw refusal(name, en: "the header claims a sample rate of \(decoder.sampleRate) Hz (1 Hz to 768 kHz are accepted)",
                          ko: "헤더의 샘플링 레이트가 \(decoder.sampleRate) Hz입니다 (1 Hz~768 kHz만 받습니다)")
        }
        let titleTag = decoder.string(Int32(SF_STR_TITLE))

        var accumulator = PeakAccumulator()
        let channels = decoder.channels
        let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: blockFrames * channels)
        defer { buffer.deallocate() }
        let floats: UnsafeMutablePointer<Float>? =
            decoder.hasFloatSamples ? UnsafeMutablePointer<Float>.allocate(capacity: blockFrames * channels) : nil
        defer { floats?.deallocate() }
        var blocks = 0
        while true {
            let count: Int
            if let floats {
                count = decoder.readFrames(floats, count: blockFrames)
                if count > 0 { convertToInt16(floats, count: count * channels, into: buffer) }
            } else {
                count = decoder.readFrames(buffer, count: blockFrames)
            }
            guard count > 0 else { break }
            accumulator.add(buffer, frameCount: count, channels: channels)
            blocks += 1
            if let progress, blocks % 64 == 0 { progress(decoder.bytesRead, source.length) }
        }
        let errorText = decoder.decodeFailure
        let isTruncated = decoder.isTruncated
        let format = decoder.format
        // The source's failure (an unreadable disk, a full one for the copy)
        // ends the decode early: that, not the shortfall, is what to report.
        try decoder.finish()
        if let errorText {
            throw refusal(name, en: "it is corrupt: decoding stopped after \(accumulator.frames) frames (\(errorText))",
                          ko: "손상된 파일입니다: \(accumulator.frames) 프레임 뒤에 디코딩이 멈췄습니다")
        }
        // A promise, not an estimate, in every container (see `SndFileDecoder`, `FFmpegDecoder`).
        if let promised = decoder.promisedFrames, accumulator.frames < promised {
            throw refusal(name, en: "it is truncated or corrupt: the header promises \(promised) frames, \(accumulator.frames) decode",
                          ko: "잘렸거나 손상된 파일입니다: 헤더는 \(promised) 프레임, 실제 디코딩은 \(accumulator.frames) 프레임")
        }
        if isTruncated {
            throw refusal(name, en: "it is truncated: its header promises more audio data than the file holds",
                          ko: "잘린 파일입니다: 헤더에 적힌 오디오 데이터가 파일보다 깁니다")
        }
        guard accumulator.frames > 0 else {
            throw refusal(name, en: "it holds no audio (zero frames)", ko: "오디오가 없습니다 (0 프레임)")
        }
        guard accumulator.frames <= AudioLimits.frames.upperBound else {
            throw refusal(name, en: "it holds more than \(AudioLimits.frames.upperBound) frames",
                          ko: "프레임이 \(AudioLimits.frames.upperBound)개보다 많습니다")
        }
        progress?(stream.highWater, source.length)
        let peaks = accumulator.finish()
        return ScannedAudio(
            formatCode: format,
            container: AudioFormat.containerName(format),
            encoding: AudioFormat.encodingName(format),
            fileExtension: AudioFormat.fileExtension(format),
            sampleRate: decoder.sampleRate, channels: channels, frames: accumulator.frames,
            peakLevel: Double(accumulator.peakMagnitude) / 32768,
            peaks: peaks, checksum: stream.checksum.hexDigest, size: stream.highWater, titleTag: titleTag)
    }

    // MARK: - Private

    /// Full scale (±1.0) to 16-bit, clipped: the inverse of the x / 32768
    /// that libsndfile reads 16-bit PCM with.
    static func convertToInt16(_ samples: UnsafePointer<Float>, count: Int, into output: UnsafeMutablePointer<Int16>) {
        for index in 0..<count {
            let scaled: Float = (samples[index] * 32768).rounded()
            if scaled >= 32767 {
                output[index] = Int16.max
            } else if scaled <= -32768 {
                output[index] = Int16.min
            } else if scaled.isNaN {
                output[index] = 0
            } else {
                output[index] = Int16(scaled)
            }
        }
    }

    /// A refusal of bad audio, said to whoever sent it (a person at the
    /// command line, or on the web page in either language): it names no
    /// decoding library, and the library's own words (always English) go
    /// into the English text alone, after what memoapp says, never into the
    /// Korean one.
    static func refusal(_ name: String, en: String, ko: String) -> MemoError {
        MemoError(.badInput, en: "\(name): \(en)", ko: "\(name): \(ko)")
    }

    /// Names what neither library could open, by what its first bytes say.
    private static func unreadable(_ name: String, head: [UInt8], reason: String) -> MemoError {
        if head.count >= 8, head[4..<8].elementsEqual("ftyp".utf8) {
            return refusal(name, en: "it is an MP4/M4A file memoapp cannot read (\(reason))",
                           ko: "memoapp이 읽을 수 없는 MP4/M4A 파일입니다")
        }
        if head.count >= 4, head[0..<4].elementsEqual("caff".utf8) {
            return refusal(name, en: "it is a CAF file memoapp cannot read (\(reason))",
                           ko: "memoapp이 읽을 수 없는 CAF 파일입니다")
        }
        return refusal(name, en: "not audio memoapp can read (\(reason))",
                       ko: "memoapp이 읽을 수 있는 오디오가 아닙니다")
    }
}
