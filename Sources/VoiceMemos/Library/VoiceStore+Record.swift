#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// The raw sample formats `voice record` reads (little-endian).
public enum RawSampleFormat: String, CaseIterable, Sendable {
    case s16, s24, f32

    /// Bytes per sample.
    var sampleSize: Int {
        switch self {
        case .s16: return 2
        case .s24: return 3
        case .f32: return 4
        }
    }

    var subtype: Int32 {
        switch self {
        case .s16: return Int32(SF_FORMAT_PCM_16)
        case .s24: return Int32(SF_FORMAT_PCM_24)
        case .f32: return Int32(SF_FORMAT_FLOAT)
        }
    }
}

/// The containers `voice record` stores in.
public enum RecordingContainer: String, CaseIterable, Sendable {
    case flac, wav

    /// FLAC has no float samples: 32-bit float input is stored as 24-bit.
    func formatCode(for input: RawSampleFormat) -> Int32 {
        switch self {
        case .wav: return Int32(SF_FORMAT_WAV) | input.subtype
        case .flac: return Int32(SF_FORMAT_FLAC) | (input == .s16 ? Int32(SF_FORMAT_PCM_16) : Int32(SF_FORMAT_PCM_24))
        }
    }
}

/// How `voice record` captures.
public struct RecordingOptions: Sendable {
    /// Frames per second of the input.
    public var sampleRate: Int
    /// Interleaved channels of the input.
    public var channels: Int
    /// The input's sample format.
    public var sampleFormat: RawSampleFormat
    /// What the memo is stored as.
    public var container: RecordingContainer
    /// The memo's title; "Recording <date time>" when nil.
    public var title: String?
    /// Tags to attach.
    public var tags: [String]

    public init(sampleRate: Int = 16000, channels: Int = 1, sampleFormat: RawSampleFormat = .s16,
                container: RecordingContainer = .flac, title: String? = nil, tags: [String] = []) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.sampleFormat = sampleFormat
        self.container = container
        self.title = title
        self.tags = tags
    }
}

extension VoiceStore {
    /// Records raw little-endian PCM from `descriptor` until its end or until
    /// `shouldStop` returns true (the CLI sets that from SIGINT and SIGTERM),
    /// then stores it as a memo like an import. What was captured before the
    /// stop is finalised (libsndfile writes the header on close) and kept.
    /// - Parameter progress: called with the frames captured so far.
    /// - Throws: `.usage` for settings the container cannot hold;
    ///   `.badInput` when not one whole frame (a sample for every channel)
    ///   arrived, or when the input ended by itself in the middle of a frame:
    ///   bytes that are not whole frames are not audio in the declared
    ///   layout. Nothing is stored then.
    public func record(from descriptor: Int32, options: RecordingOptions,
                       shouldStop: @escaping () -> Bool = { false },
                       progress: ((Int64) -> Void)? = nil) throws -> VoiceMemo {
        let title = try options.title.map(VoiceStore.validTitle)
        let tags = try Tags.normalized(options.tags)
        guard AudioLimits.sampleRates.contains(options.sampleRate), AudioLimits.channels.contains(options.channels) else {
            let channels = AudioLimits.channels.upperBound
            throw MemoError(.usage, en: "the rate must be 1 Hz to 768 kHz and the channels 1 to \(channels)",
                            ko: "샘플링 레이트는 1 Hz~768 kHz, 채널은 1~\(channels)개여야 합니다")
        }
        let code = options.container.formatCode(for: options.sampleFormat)
        try prepareDirectory()
        try removeLeftovers()
        let output = try TemporaryFile(in: directory, purpose: "record")
        do {
            let writer: SoundFile
            switch try SoundFile.open(writingDescriptor: output.descriptor, format: code,
                                  sampleRate: options.sampleRate, channels: options.channels) {
            case let .success(opened): writer = opened
            case let .failure(error):
                throw MemoError(.usage, en: "cannot record that way: \(error.reason)",
                                ko: "그 설정으로는 녹음할 수 없습니다: \(error.reason)")
            }
            let input = RawInputStream(descriptor: descriptor, shouldStop: shouldStop)
            var rawFormat = SF_INFO()
            rawFormat.format = Int32(SF_FORMAT_RAW | SF_ENDIAN_LITTLE) | options.sampleFormat.subtype
            rawFormat.samplerate = Int32(options.sampleRate)
            rawFormat.channels = Int32(options.channels)
            let reader: SoundFile
            switch try SoundFile.open(reading: input, io: RawInputStream.virtualIO, format: rawFormat) {
            case let .success(opened): reader = opened
            case let .failure(error):
                throw MemoError(.internalFailure, en: "libsndfile cannot read raw input: \(error.reason)",
                                ko: "libsndfile이 원시 입력을 읽지 못합니다: \(error.reason)")
            }
            // A pipe may never end: a memo stops at the most frames one holds.
            let frames = try FrameCopier.copy(from: reader, to: writer, limit: AudioLimits.frames.upperBound,
                                              throughIntegers: options.sampleFormat != .f32,
                                              shouldStop: shouldStop, progress: progress)
            if let failure = input.failure {
                throw MemoError(.noInput, en: "reading the input failed: \(String(cString: strerror(failure)))",
                                ko: "입력을 읽지 못했습니다: \(String(cString: strerror(failure)))")
            }
            try writer.closeOrThrow(Localized(en: "finishing the recording failed", ko: "녹음을 마무리하지 못했습니다"))
            guard frames > 0 else {
                throw MemoError(.badInput, en: "nothing was recorded: the input ended before a whole frame arrived",
                                ko: "녹음된 것이 없습니다: 한 프레임이 오기 전에 입력이 끝났습니다")
            }
            // A stop may cut a frame (the capture ends where the reading was);
            // an input that ends by itself ends on a frame boundary.
            let frameSize = Int64(options.sampleFormat.sampleSize * options.channels)
            if input.reachedEnd && !input.wasStopped && input.position % frameSize != 0 {
                let format = options.sampleFormat.rawValue, channels = options.channels
                throw MemoError(.badInput,
                                en: "nothing was recorded: the input's \(input.position) bytes are not whole frames of "
                                    + "\(frameSize) bytes (\(format) samples, \(channels) channel\(channels == 1 ? "" : "s")); "
                                    + "check its sample format and channel count",
                                ko: "녹음하지 않았습니다: 입력 \(input.position)바이트가 \(frameSize)바이트 프레임"
                                    + "(\(format) 샘플, 채널 \(channels)개)으로 나누어떨어지지 않습니다. 샘플 형식과 채널 수를 확인하세요")
            }
            let audio = try AudioScanner.scan(try FileByteSource(path: output.path, followsSymbolicLinks: false), name: "recording")
            let recordedTitle = title ?? "Recording \(clock.now().localMinute)"
            return try insert(output, audio: audio, title: recordedTitle, originalName: "recording", tags: tags,
                              allowDuplicate: true)
        } catch {
            output.discard()
            throw error
        }
    }
}
