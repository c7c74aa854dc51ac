#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// The formats `voice export` writes.
public enum ExportFormat: String, CaseIterable, Sendable {
    case wav, flac, ogg, mp3

    /// The lowercase name endings that say this format, the usual one first.
    public var fileExtensions: [String] {
        switch self {
        case .wav: return ["wav", "wave"]
        case .flac: return ["flac"]
        case .ogg: return ["ogg", "oga"]
        case .mp3: return ["mp3"]
        }
    }

    /// The libsndfile format code to write a memo stored as `source` in:
    /// PCM keeps its depth where the container allows (ALAC's becomes PCM's),
    /// lossy sources (AAC among them) become 16-bit (24-bit in FLAC when the
    /// source is deeper than 16).
    func formatCode(from source: Int32) -> Int32 {
        let subtype = ExportFormat.pcmDepth(ofALAC: Int(source & Int32(SF_FORMAT_SUBMASK)))
        let deep = [SF_FORMAT_PCM_24, SF_FORMAT_PCM_32, SF_FORMAT_FLOAT, SF_FORMAT_DOUBLE].contains(subtype)
        switch self {
        case .wav:
            let keeps = [SF_FORMAT_PCM_U8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_32, SF_FORMAT_FLOAT,
                         SF_FORMAT_DOUBLE, SF_FORMAT_ULAW, SF_FORMAT_ALAW].contains(subtype)
            return Int32(SF_FORMAT_WAV | (keeps ? subtype : SF_FORMAT_PCM_16))
        case .flac:
            let depth = subtype == SF_FORMAT_PCM_S8 ? SF_FORMAT_PCM_S8 : (deep ? SF_FORMAT_PCM_24 : SF_FORMAT_PCM_16)
            return Int32(SF_FORMAT_FLAC | depth)
        case .ogg: return Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        case .mp3: return Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        }
    }

    /// ALAC's depth as the PCM encoding of that depth (20-bit in 24); any
    /// other encoding as it is.
    private static func pcmDepth(ofALAC subtype: Int) -> Int {
        switch subtype {
        case SF_FORMAT_ALAC_16: return SF_FORMAT_PCM_16
        case SF_FORMAT_ALAC_20, SF_FORMAT_ALAC_24: return SF_FORMAT_PCM_24
        case SF_FORMAT_ALAC_32: return SF_FORMAT_PCM_32
        default: return subtype
        }
    }
}

/// What `voice export` wrote.
public struct ExportResult: Equatable, Sendable {
    /// Where the file was written.
    public let destination: String
    /// The written container.
    public let container: String
    /// The written encoding.
    public let encoding: String
    /// True when the stored bytes were copied as they are (same format).
    public let isVerbatimCopy: Bool
    /// Bytes written.
    public let size: Int64
}

extension VoiceStore {
    /// Writes memo `id`'s audio in `format` into `descriptor`, an empty file
    /// open for writing and seeking (libsndfile goes back to finish a WAV
    /// header), converting through libsndfile; the stored bytes are copied as
    /// they are when the format is the stored one. Where the file goes, and
    /// how it gets there whole, is the caller's.
    /// - Parameters:
    ///   - shownPath: the destination as messages name it.
    ///   - progress: called now and then with the frames converted and their
    ///     number (not for a verbatim copy, which takes no time worth showing).
    /// - Throws: `.notFound` for no such memo; `.badInput` when libsndfile
    ///   cannot write the memo's audio in that format.
    public func writeAudio(id: Int64, as format: ExportFormat, into descriptor: Int32,
                           shownPath: String, progress: ((Int64, Int64) -> Void)? = nil) throws -> ExportResult {
        let memo = try memo(id: id)
        let code = format.formatCode(from: memo.formatCode)
        let verbatim = code == memo.formatCode
        if verbatim {
            try copyStoredBytes(of: memo, to: descriptor, shownPath: shownPath)
        } else {
            try transcode(memo, to: descriptor, format: code, progress: progress)
        }
        var status = stat()
        let size = fstat(descriptor, &status) == 0 ? Int64(status.st_size) : 0
        return ExportResult(destination: shownPath, container: AudioFormat.containerName(code),
                            encoding: AudioFormat.encodingName(code), isVerbatimCopy: verbatim, size: size)
    }

    /// An SVG picture of memo `id`'s waveform.
    /// - Throws: `.usage` for a size outside `WaveformPicture.widths` and `heights`.
    public func waveformPicture(id: Int64, width: Int, height: Int) throws -> String {
        guard WaveformPicture.widths.contains(width), WaveformPicture.heights.contains(height) else {
            let widths = WaveformPicture.widths, heights = WaveformPicture.heights
            throw MemoError(.usage,
                            en: "a waveform picture is \(widths.lowerBound) to \(widths.upperBound) pixels wide and "
                                + "\(heights.lowerBound) to \(heights.upperBound) high",
                            ko: "파형 그림의 너비는 \(widths.lowerBound)~\(widths.upperBound), "
                                + "높이는 \(heights.lowerBound)~\(heights.upperBound) 픽셀입니다")
        }
        let memo = try memo(id: id)
        return WaveformPicture.svg(peaks: try peaks(id: id), width: width, height: height, title: memo.title)
    }

    /// Decodes memo audio and encodes it into `descriptor` as `format`,
    /// copying its tags and setting its title; `progress` gets the frames
    /// copied and the frames to copy.
    func transcode(_ memo: VoiceMemo, to descriptor: Int32, format: Int32,
                   span: Range<Int64>? = nil, progress: ((Int64, Int64) -> Void)? = nil) throws {
        let decoder = try openStoredForDecoding(memo)
        let writer: SoundFile
        switch try SoundFile.open(writingDescriptor: descriptor, format: format,
                              sampleRate: decoder.sampleRate, channels: decoder.channels) {
        case let .success(opened): writer = opened
        case let .failure(error):
            throw MemoError(.badInput, en: "cannot write voice memo \(memo.id) that way: \(error.reason)",
                            ko: "음성 메모 \(memo.id)을(를) 그 형식으로 쓸 수 없습니다: \(error.reason)")
        }
        FrameCopier.copyStrings(from: decoder, to: writer)
        writer.setString(Int32(SF_STR_TITLE), memo.title)
        if let span, span.lowerBound > 0, !decoder.seek(toFrame: span.lowerBound) {
            // Some decoders cannot seek (MPEG, whose end mpg123 is not shown;
            // FFmpeg's, exactly); reading up to the start gets there too.
            guard decoder.skip(frames: span.lowerBound) == span.lowerBound else {
                throw MemoError(.storage, en: "voice memo \(memo.id)'s file ends early; run `memoapp voice verify`",
                                ko: "음성 메모 \(memo.id)의 파일이 일찍 끝납니다. `memoapp voice verify`를 실행하세요")
            }
        }
        let throughIntegers = AudioFormat.isIntegerPCM(memo.formatCode) && AudioFormat.isIntegerPCM(format)
        let total = span.map { $0.upperBound - $0.lowerBound } ?? memo.frames
        let copied = try FrameCopier.copy(from: decoder, to: writer, limit: span.map { $0.upperBound - $0.lowerBound },
                                          throughIntegers: throughIntegers,
                                          progress: progress.map { report in { copied in report(copied, total) } })
        // Nothing made from other bytes than the memo's leaves the command.
        try finishVerifying(decoder, of: memo)
        guard copied > 0 else {
            throw MemoError(.storage, en: "voice memo \(memo.id)'s file decodes to no audio",
                            ko: "음성 메모 \(memo.id)의 파일에서 오디오가 나오지 않습니다")
        }
        try writer.closeOrThrow(Localized(en: "writing audio failed", ko: "오디오를 쓰지 못했습니다"))
    }
}
