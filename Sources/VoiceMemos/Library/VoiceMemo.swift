#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// One voice memo as stored: its audio's metadata and where the audio lives.
public struct VoiceMemo: Equatable, Sendable {
    /// The memo's id, never reused.
    public let id: Int64
    /// The memo's identity in every data home (a UUID, lowercase); kept by
    /// export and import.
    public let uid: String
    /// The title: given, else the file's TITLE tag, else its name.
    public var title: String
    /// The name of the file it was imported from (or "recording").
    public let originalName: String
    /// The stored file's name inside the library folder.
    public let fileName: String
    /// The container, e.g. "FLAC".
    public let container: String
    /// The encoding, e.g. "PCM 16-bit".
    public let encoding: String
    /// libsndfile's format code (major | subtype); trim writes the same one back.
    public let formatCode: Int32
    /// Frames per second.
    public let sampleRate: Int
    /// Samples per frame.
    public let channels: Int
    /// Frames that decode (the true length).
    public let frames: Int64
    /// Bytes of the stored file.
    public let size: Int64
    /// The largest sample magnitude, 0...1 of full scale.
    public let peakLevel: Double
    /// XXH3-128 of the stored bytes, hex.
    public let checksum: String
    /// When it was imported or recorded.
    public let importedAt: Timestamp
    /// When trim or rename last changed it.
    public let updatedAt: Timestamp?
    /// Its tags, sorted.
    public let tags: [String]
    /// Its revision in this data home: the number of its latest change
    /// (title, tags, trim), from one counter of the home, so a higher rev
    /// is a later change. 0 for one never stored. The API's ETag.
    public var rev: Int64 = 0

    /// Seconds.
    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// The peak level in dBFS (−∞ for silence).
    public var peakDecibels: Double { peakLevel > 0 ? 20 * log10(peakLevel) : -Double.infinity }
}

/// A problem `voice verify` found.
public struct VerificationProblem: Equatable, Sendable {
    /// What is wrong; the raw value is the JSON `kind`.
    public enum Kind: String, Sendable {
        /// A memo's file is gone.
        case missingFile = "missing_file"
        /// A memo's file no longer decodes in full.
        case undecodable
        /// A memo's file has other bytes than were imported.
        case checksumMismatch = "checksum_mismatch"
        /// A file in the library folder that no memo names.
        case orphanFile = "orphan_file"
    }

    /// What is wrong.
    public let kind: Kind
    /// The memo concerned, if any.
    public let memoID: Int64?
    /// The file in the library folder.
    public let fileName: String
    /// One line for people.
    public let message: Localized
}

/// How `voice import` treats one file.
public struct ImportOptions: Sendable {
    /// The title: given, else the file's TITLE tag, else its name.
    public var title: String?
    /// Tags to attach.
    public var tags: [String]
    /// Store bytes that an existing memo already holds.
    public var allowDuplicate: Bool
    /// The memo's identity, for importers that carry one; a new random UUID when nil.
    public var uid: String?
    /// The name the audio had where it came from, when the file read is not
    /// it (an upload spooled to a temporary file); nil: the file's own name.
    public var originalName: String?

    public init(title: String? = nil, tags: [String] = [], allowDuplicate: Bool = false, uid: String? = nil,
                originalName: String? = nil) {
        self.title = title
        self.tags = tags
        self.allowDuplicate = allowDuplicate
        self.uid = uid
        self.originalName = originalName
    }
}

extension MemoError.Hint {
    /// Storing the same audio again is allowed when asked for.
    public static let allowDuplicate = MemoError.Hint(rawValue: "allow_duplicate")
    /// The audio format can be named instead of read from the file name.
    public static let nameTheFormat = MemoError.Hint(rawValue: "name_the_format")
}
