#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// One voice memo as stored: its audio's metadata and where the audio lives.
public struct VoiceMemo: Equatable, Sendable {
    public let id: Int64
    public var title: String
    /// The name of the file it was imported from (or "recording").
    public let originalName: String
    /// The stored file's name inside the library folder.
    public let fileName: String
    public let container: String
    public let encoding: String
    /// libsndfile's format code (major | subtype); trim writes the same one back.
    public let formatCode: Int32
    public let sampleRate: Int
    public let channels: Int
    public let frames: Int64
    public let size: Int64
    /// The largest sample magnitude, 0...1 of full scale.
    public let peakLevel: Double
    /// XXH3-128 of the stored bytes, hex.
    public let checksum: String
    public let importedAt: Timestamp
    /// When trim or rename last changed it.
    public let updatedAt: Timestamp?
    public let tags: [String]

    public var duration: Double { Double(frames) / Double(sampleRate) }

    /// The peak level in dBFS (−∞ for silence).
    public var peakDecibels: Double { peakLevel > 0 ? 20 * log10(peakLevel) : -Double.infinity }
}

/// A problem `voice verify` found.
public struct VerificationProblem: Equatable, Sendable {
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

    public let kind: Kind
    /// The memo concerned, if any.
    public let memoID: Int64?
    /// The file in the library folder.
    public let fileName: String
    public let message: Localized
}

/// How `voice import` treats one file.
public struct ImportOptions: Sendable {
    public var title: String?
    public var tags: [String]
    /// Store bytes that an existing memo already holds.
    public var allowDuplicate: Bool

    public init(title: String? = nil, tags: [String] = [], allowDuplicate: Bool = false) {
        self.title = title
        self.tags = tags
        self.allowDuplicate = allowDuplicate
    }
}
