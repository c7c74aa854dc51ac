import MemoCore
import SQLite

extension VoiceArchive {
    /// A voice memo as an export holds it: its row, tags and peaks, without
    /// the audio (`VoiceAudioImport` finds and stores that).
    public struct Item: Equatable, Sendable {
        /// The id in the exported home.
        public let id: Int64
        /// The memo's identity in every home.
        public let uid: String
        /// Its title.
        public let title: String
        /// The name of the file it was first imported from.
        public let originalName: String
        /// `<id>-<checksum>.<ext>` in the exported home's library folder.
        public let fileName: String
        /// The container's name, e.g. "FLAC".
        public let container: String
        /// The encoding's name, e.g. "PCM 16-bit".
        public let encoding: String
        /// libsndfile's format code.
        public let formatCode: Int32
        /// Frames per second.
        public let sampleRate: Int
        /// Samples per frame.
        public let channels: Int
        /// Frames that decode.
        public let frames: Int64
        /// The stored length in seconds.
        public let duration: Double
        /// Bytes of the audio file.
        public let size: Int64
        /// The largest sample magnitude, 0...1 of full scale.
        public let peakLevel: Double
        /// XXH3-128 of the audio's bytes, 32 lowercase hex digits.
        public let checksum: String
        /// When it was first imported or recorded.
        public let importedAt: Timestamp
        /// When trim or rename last changed it.
        public let updatedAt: Timestamp?
        /// Its tags, sorted.
        public let tags: [String]
        /// The stored peaks, nil when the exported memo had none.
        public let peaks: WaveformPeaks?
        /// Where the memo sits in the document, for errors found later (its
        /// audio disagreeing with it): the document's name, if any, and the path.
        public let source: String?
        public let path: JSONPath

        /// The stored file's extension (`flac` in `3-<checksum>.flac`).
        public var fileExtension: String {
            fileName.split(separator: ".", maxSplits: 1).last.map(String.init) ?? ""
        }

        /// A bad-input error about this memo's member `key`, naming its path.
        func failure(at key: String, en: String, ko: String) -> MemoError {
            JSONReader(.null, path: path, source: source).failure(at: key, en: en, ko: ko)
        }
    }

    /// A voice memo from an export, every field checked: types, ranges, a
    /// file name that is this memo's own (`<id>-<checksum>.<ext>`) and peaks
    /// that cover its frames. Errors are bad input naming the path.
    public static func item(from reader: JSONReader) throws -> Item {
        let id = try reader.id()
        let checksumReader = try reader.nonNull("checksum", expecting: Localized(en: "a checksum (32 hex digits)", ko: "체크섬(16진수 32자리)"))
        let checksum = try checksumReader.string()
        guard checksum.utf8.count == 32, checksum.utf8.allSatisfy(isLowerHex) else {
            throw checksumReader.failure(en: "a checksum is 32 lowercase hex digits (XXH3-128)",
                                         ko: "체크섬은 소문자 16진수 32자리(XXH3-128)입니다")
        }
        let fileNameReader = try reader.nonNull("file_name", expecting: Localized(en: "a file name (a string)", ko: "파일 이름(문자열)"))
        let fileName = try fileNameReader.string()
        let prefix = "\(id)-\(checksum)."
        let fileExtension = fileName.hasPrefix(prefix) ? Array(fileName.utf8.dropFirst(prefix.utf8.count)) : []
        guard (1...8).contains(fileExtension.count), fileExtension.allSatisfy(isLowerAlphanumeric) else {
            throw fileNameReader.failure(en: "a voice memo's file is named <id>-<checksum>.<extension>: \(prefix)…",
                                         ko: "음성 메모 파일 이름은 <id>-<체크섬>.<확장자>입니다: \(prefix)…")
        }
        let titleReader = try reader.nonNull("title", expecting: Localized(en: "a title (a string)", ko: "제목(문자열)"))
        let title = try titleReader.string()
        guard !title.trimmingSpaces().isEmpty else {
            throw titleReader.failure(en: "a title cannot be empty", ko: "제목은 비워 둘 수 없습니다")
        }
        guard !title.hasLineBreak else {
            throw titleReader.failure(en: "a title must be one line", ko: "제목은 한 줄이어야 합니다")
        }
        let tagsReader = try reader.nonNull("tags", expecting: Localized(en: "a list of tags", ko: "태그 목록"))
        let tags = try tagsReader.elements().map { try $0.string() }
        guard (try? VoiceStore.archivedTags(tags)) == tags, tags.allSatisfy({ $0 == $0.trimmingSpaces() }) else {
            throw tagsReader.failure(en: "tags must be distinct, non-empty and without leading or trailing spaces",
                                     ko: "태그는 서로 다르고 비어 있지 않으며 앞뒤 공백이 없어야 합니다")
        }
        let frames = try reader.int("frames", in: AudioLimits.frames)
        let level = try reader.nonNull("peak_level", expecting: Localized(en: "a level from 0 to 1", ko: "0에서 1 사이의 레벨"))
        let peakLevel = try level.finiteDouble()
        guard peakLevel >= 0 else { throw level.failure(en: "a level cannot be negative", ko: "레벨은 음수일 수 없습니다") }
        guard peakLevel <= 1 else {
            throw level.failure(en: "a level is at most 1 (full scale)", ko: "레벨은 최대 1(최대 음량)입니다")
        }
        let duration = try reader.nonNull("duration", expecting: Localized(en: "a duration in seconds", ko: "초 단위 길이"))
        let seconds = try duration.finiteDouble()
        guard seconds >= 0 else { throw duration.failure(en: "a duration cannot be negative", ko: "길이는 음수일 수 없습니다") }
        return Item(id: id, uid: try reader.uid(), title: title, originalName: try reader.string("original_name"),
                    fileName: fileName, container: try reader.string("container"),
                    encoding: try reader.string("encoding"),
                    formatCode: Int32(try reader.int("format_code", in: 1...Int64(Int32.max))),
                    sampleRate: Int(try reader.int("sample_rate", in: int64(AudioLimits.sampleRates))),
                    channels: Int(try reader.int("channels", in: int64(AudioLimits.channels))),
                    frames: frames, duration: seconds, size: try reader.int("size", in: 1...Int64.max),
                    peakLevel: peakLevel, checksum: checksum, importedAt: try reader.time("imported_at"),
                    updatedAt: try reader.nullableTime("updated_at"), tags: tags,
                    peaks: try reader.nullable("peaks").map { try peaks(from: $0, frames: frames) },
                    source: reader.source, path: reader.path)
    }

    /// Whether no voice memo is stored.
    public static func isEmpty(_ connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT NOT EXISTS (SELECT 1 FROM voice_memos)") { $0.bool(0) } ?? true
    }

    /// Whether a voice memo with `uid` is stored.
    public static func contains(uid: String, in connection: Connection) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM voice_memos WHERE uid = ?", uid) { _ in true } ?? false
    }

    // MARK: - Private

    /// A range of the module's, as the document's integers.
    private static func int64(_ range: ClosedRange<Int>) -> ClosedRange<Int64> {
        Int64(range.lowerBound)...Int64(range.upperBound)
    }

    private static func peaks(from reader: JSONReader, frames: Int64) throws -> WaveformPeaks {
        let samplesPerPixel = try reader.int("samples_per_pixel", in: 1...Int64(Int32.max))
        let encoding = try reader.nonNull("encoding")
        guard try encoding.string() == peaksEncoding else {
            throw encoding.failure(en: "this memoapp reads peaks encoded as \(peaksEncoding) only",
                                   ko: "이 memoapp은 \(peaksEncoding) 형식의 파형만 읽습니다")
        }
        let data = try reader.nonNull("data")
        let expectedPairs = AudioLimits.ceilingDivision(frames, by: samplesPerPixel)
        guard let blob = Base64.decode(try data.string()),
              let peaks = WaveformPeaks(samplesPerPixel: Int(samplesPerPixel), frames: frames, blob: blob) else {
            throw data.failure(en: "not Base64 of 16-bit (minimum, maximum) pairs",
                               ko: "16비트 (최소, 최대) 쌍의 Base64가 아닙니다")
        }
        guard Int64(peaks.pixelCount) == expectedPairs else {
            throw data.failure(en: "\(peaks.pixelCount) pairs, but \(frames) frames at \(samplesPerPixel) per pair need \(expectedPairs)",
                               ko: "쌍이 \(peaks.pixelCount)개인데, 프레임 \(frames)개를 쌍마다 \(samplesPerPixel)개씩이면 \(expectedPairs)개여야 합니다")
        }
        return peaks
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
