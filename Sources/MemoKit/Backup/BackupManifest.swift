import MemoCore
import VoiceMemos

/// A backup's `MANIFEST`: one line per file, `<xxh128 hex>  <relative path>`,
/// the format `xxh128sum` writes and checks (`cd DIR && xxh128sum -c MANIFEST`).
/// It is written last, so a folder without one is not a finished backup.
///
/// Paths are only `memoapp.db` and `voice/<name>` with a name memoapp gives
/// its audio files: a MANIFEST naming anything else (`../`, an absolute
/// path, a hidden file) is refused, so that a restore never reads or writes
/// outside the backup and the data home.
public struct BackupManifest: Equatable, Sendable {
    /// One file of the backup.
    public struct Entry: Equatable, Sendable {
        /// The path inside the backup folder, e.g. `voice/3-<hex>.flac`.
        public let path: String
        /// XXH3-128 of its bytes, 32 lowercase hex digits.
        public let checksum: String

        /// The audio file's name for a `voice/` entry, nil for the database.
        public var voiceFileName: String? {
            path.hasPrefix(BackupManifest.voicePrefix) ? String(path.dropFirst(BackupManifest.voicePrefix.count)) : nil
        }
    }

    public static let fileName = "MANIFEST"
    public static let databasePath = "memoapp.db"
    public static let voiceFolder = "voice"
    public static let voicePrefix = voiceFolder + "/"
    /// A MANIFEST of a million voice files is about 80 MB; more is not one of ours.
    public static let maximumSize = 128 << 20

    /// The database's line.
    public let database: Entry
    /// The audio files' lines, in the order written.
    public let voiceFiles: [Entry]

    /// The text to write: the database first, then the audio files.
    public var text: String {
        ([database] + voiceFiles).map { "\($0.checksum)  \($0.path)\n" }.joined()
    }

    /// Reads a MANIFEST's text, refusing anything this version does not write.
    /// - Parameter name: how to call the file in messages (its path).
    /// - Throws: `.badInput` naming the line and what is wrong with it.
    public static func parse(_ bytes: [UInt8], name: String) throws -> BackupManifest {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw problem(name, en: "is not UTF-8 text", ko: "UTF-8 텍스트가 아닙니다")
        }
        var database: Entry?
        var voiceFiles: [Entry] = []
        var seen: Set<String> = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            if line.isEmpty && index == lines.count - 1 { break }  // after the last line break
            let number = index + 1
            guard let entry = entry(from: line) else {
                throw problem(name, en: "line \(number) is not '<32 hex digits>  <path>'",
                              ko: "\(number)번째 줄이 '<16진수 32자리>  <경로>' 형식이 아닙니다")
            }
            guard entry.path == databasePath || entry.voiceFileName.map(VoiceStore.isLibraryName) == true else {
                throw problem(name, en: "line \(number) names '\(entry.path)', which is not a file a memoapp backup holds (only memoapp.db and voice/<id>-<checksum>.<ext>)",
                              ko: "\(number)번째 줄의 '\(entry.path)'은(는) memoapp 백업에 들어가는 파일이 아닙니다 (memoapp.db와 voice/<id>-<체크섬>.<확장자>만)")
            }
            guard seen.insert(entry.path).inserted else {
                throw problem(name, en: "line \(number) names '\(entry.path)' a second time",
                              ko: "\(number)번째 줄에서 '\(entry.path)'이(가) 두 번째로 나옵니다")
            }
            if entry.path == databasePath { database = entry } else { voiceFiles.append(entry) }
        }
        guard let database else {
            throw problem(name, en: "has no line for memoapp.db", ko: "memoapp.db 줄이 없습니다")
        }
        return BackupManifest(database: database, voiceFiles: voiceFiles)
    }

    // MARK: - Private

    /// `<32 lowercase hex>  <path>` exactly: no escapes, no extra spaces.
    private static func entry(from line: Substring) -> Entry? {
        let bytes = Array(line.utf8)
        guard bytes.count > 34, bytes[32] == 0x20, bytes[33] == 0x20 else { return nil }
        let checksum = bytes[..<32]
        let isHex = checksum.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard isHex else { return nil }
        return Entry(path: String(decoding: bytes[34...], as: UTF8.self),
                     checksum: String(decoding: checksum, as: UTF8.self))
    }

    private static func problem(_ name: String, en: String, ko: String) -> MemoError {
        MemoError(.badInput, en: "\(name) \(en): not a memoapp backup MANIFEST; nothing was changed",
                  ko: "\(name): \(ko). memoapp 백업 MANIFEST가 아닙니다. 아무것도 바꾸지 않았습니다")
    }
}
