#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

extension VoiceStore {
    /// A file in the library folder that no memo owns.
    public struct Leftover: Equatable, Sendable {
        /// Its name in the library folder.
        public let fileName: String
        /// True for an abandoned temporary, false for a final name without a row.
        public let isTemporary: Bool
        /// True for a file memoapp never names so (`stray.wav` copied in by
        /// hand): reported, but never removed, since memoapp did not write it.
        public var isForeign = false
    }

    /// Removes leftovers of crashed commands (see the type's documentation);
    /// once per store. Returns the names removed.
    @discardableResult
    public func removeLeftovers() throws -> [String] {
        guard !hasRemovedLeftovers else { return [] }
        hasRemovedLeftovers = true
        guard FileSystem.isDirectory(directory) else { return [] }
        // A restore installing its audio holds the folder's lock: its files have
        // no rows yet and are not leftovers. Sweep another time.
        guard let libraryLock = VoiceLibraryLock.sharedIfFree(in: directory) else { return [] }
        defer { libraryLock.release() }
        let removed: [String] = try connection.writeTransaction {
            var removed: [String] = []
            for leftover in try findLeftovers() {
                let path = directory + "/" + leftover.fileName
                if leftover.isForeign {
                    continue
                } else if leftover.isTemporary {
                    // Under its lock, and only if its writer is still gone (see `TemporaryFile`).
                    if TemporaryFile.removeIfAbandoned(path) { removed.append(leftover.fileName) }
                } else {
                    try FileSystem.removeFile(path)
                    removed.append(leftover.fileName)
                }
            }
            return removed
        }
        if !removed.isEmpty { try FileSystem.fsyncDirectory(directory) }
        return removed
    }

    /// Leftovers now in the folder. Call inside a write transaction, so that
    /// no other process is between a rename and its commit.
    func findLeftovers() throws -> [Leftover] {
        guard FileSystem.isDirectory(directory) else { return [] }
        let owned = Set(try connection.query("SELECT file_name FROM voice_memos") { $0.string(0) })
        var leftovers: [Leftover] = []
        for name in try FileSystem.names(in: directory) {
            if TemporaryFile.isTemporaryName(name) {
                if TemporaryFile.isAbandoned(directory + "/" + name) {
                    leftovers.append(Leftover(fileName: name, isTemporary: true))
                }
            } else if VoiceStore.isLibraryName(name) {
                if !owned.contains(name) { leftovers.append(Leftover(fileName: name, isTemporary: false)) }
            } else if !VoiceStore.ownFolderNames.contains(name) {
                leftovers.append(Leftover(fileName: name, isTemporary: false, isForeign: true))
            }
        }
        return leftovers
    }

    /// What else memoapp keeps in the library folder: the audio the undo
    /// history holds (`.undo/`), sync's blobs (`.sync/`).
    static let ownFolderNames: Set<String> = [".undo", syncBlobFolder]

    /// `<id>-<32 hex>.<ext>`: the names memos' files get. Never a path, never
    /// hidden, so a name that passes is safe to join to a folder.
    public static func isLibraryName(_ name: String) -> Bool {
        let parts = name.split(separator: "-", maxSplits: 1)
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        let rest = parts[1].split(separator: ".", maxSplits: 1)
        guard rest.count == 2, rest[0].count == 32, !rest[1].isEmpty,
              rest[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return false }
        return rest[0].allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    static func libraryName(id: Int64, checksum: String, fileExtension: String) -> String {
        "\(id)-\(checksum).\(fileExtension)"
    }

    /// Turns a finished temporary file into memo `id`'s file, inside the
    /// current write transaction: rename to the final name, then fsync the
    /// folder, so the commit that follows never names a file that a crash
    /// could lose. Returns the final name.
    func moveIntoPlace(_ file: TemporaryFile, id: Int64, audio: ScannedAudio) throws -> String {
        let name = VoiceStore.libraryName(id: id, checksum: audio.checksum, fileExtension: audio.fileExtension)
        try FileSystem.rename(file.path, to: directory + "/" + name)
        try FileSystem.fsyncDirectory(directory)
        return name
    }

    /// The memo that already holds bytes with `checksum`, if any.
    func memoHolding(checksum: String) throws -> (id: Int64, title: String)? {
        try connection.queryFirst("SELECT id, title FROM voice_memos WHERE checksum = ? ORDER BY id LIMIT 1",
                                  checksum) { ($0.int64(0), $0.string(1)) }
    }

    func storePeaks(_ peaks: WaveformPeaks, memoID: Int64) throws {
        try connection.execute("""
            INSERT INTO voice_memo_peaks (memo_id, samples_per_pixel, data) VALUES (?, ?, ?)
            ON CONFLICT (memo_id) DO UPDATE SET samples_per_pixel = excluded.samples_per_pixel, data = excluded.data
            """, memoID, peaks.samplesPerPixel, peaks.blob)
    }
}
