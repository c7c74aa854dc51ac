#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

/// Sync's blobs: audio named by its checksum on its way between a hub and a
/// device, in the library's `.sync/` folder. `<checksum>.part` while it
/// arrives, kept across a cut connection so that the transfer resumes where
/// it stopped; `<checksum>` once whole and checked; taken over by the memo
/// that names it (`importSynced`), so the audio is written once.
extension VoiceStore {
    public var syncBlobDirectory: String { directory + "/" + VoiceStore.syncBlobFolder }

    static let syncBlobFolder = ".sync"

    /// 32 lowercase hex digits: a voice memo's checksum (XXH3-128), and the
    /// only names a blob has, so one is safe to join to a folder.
    public static func isChecksum(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Where the audio with `checksum` is whole here: a memo's file, or a
    /// checked blob; nil when it is not.
    public func audioPath(checksum: String) throws -> String? {
        precondition(VoiceStore.isChecksum(checksum))
        if let name = try connection.queryFirst("SELECT file_name FROM voice_memos WHERE checksum = ? LIMIT 1", checksum,
                                                map: { $0.string(0) }),
           FileSystem.exists(directory + "/" + name) {
            return directory + "/" + name
        }
        let blob = syncBlobDirectory + "/" + checksum
        return FileSystem.exists(blob) ? blob : nil
    }

    /// How many bytes of the blob `checksum` have arrived so far (0: none).
    public func receivedBytes(checksum: String) -> Int64 {
        precondition(VoiceStore.isChecksum(checksum))
        return FileSystem.size(of: syncBlobDirectory + "/" + checksum + ".part") ?? 0
    }

    /// The partial blob `checksum`, open for appending at `offset`, which
    /// must be where it stands (a resumed transfer goes on, never over).
    public func blobWriter(checksum: String, offset: Int64) throws -> SyncBlobWriter {
        precondition(VoiceStore.isChecksum(checksum))
        for folder in [directory, syncBlobDirectory] where !FileSystem.isDirectory(folder) {
            try FileSystem.makeDirectory(folder)
        }
        let path = syncBlobDirectory + "/" + checksum + ".part"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw FileSystem.storageError(.opening, path) }
        // One writer a blob: a second transfer of the same audio waits its turn.
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw MemoError(.invalidState, en: "the audio \(checksum) is being received already",
                            ko: "오디오 \(checksum)을(를) 이미 받고 있습니다")
        }
        let size = Int64(lseek(descriptor, 0, SEEK_END))
        guard size == offset else {
            close(descriptor)
            throw MemoError(.invalidState, hint: .blobOffset,
                            en: "\(size) bytes of the audio \(checksum) are here, not \(offset)",
                            ko: "오디오 \(checksum)은(는) \(offset)바이트가 아니라 \(size)바이트까지 와 있습니다")
        }
        return SyncBlobWriter(path: path, descriptor: descriptor)
    }

    /// The partial blob `checksum` is whole: its bytes are checked against
    /// the checksum, flushed, and it becomes a blob. Bytes that are not the
    /// checksum's are removed: the transfer starts again.
    public func finishBlob(checksum: String) throws {
        let part = syncBlobDirectory + "/" + checksum + ".part"
        let descriptor = open(part, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { throw FileSystem.storageError(.opening, part) }
        defer { close(descriptor) }
        let sum = StreamingChecksum()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count >= 0 else { throw FileSystem.storageError(.reading, part) }
            if count == 0 { break }
            buffer.withUnsafeBytes { sum.update($0.baseAddress!, count: count) }
        }
        guard sum.hexDigest == checksum else {
            try? FileSystem.removeFile(part)
            throw MemoError(.badInput, en: "the audio sent is not the audio \(checksum): send it again",
                            ko: "보낸 오디오가 \(checksum) 오디오가 아닙니다. 다시 보내세요")
        }
        try FileSystem.fsyncFile(descriptor, path: part)
        try FileSystem.rename(part, to: syncBlobDirectory + "/" + checksum)
        try FileSystem.fsyncDirectory(syncBlobDirectory)
    }

    /// Removes the whole blobs no memo took (a device's, after a sync that
    /// wrote every page: the items they were for were changed here since,
    /// and come back, with their audio, on a later pull). Parts stay: a
    /// transfer goes on from them.
    public func removeUnusedBlobs() throws {
        guard FileSystem.isDirectory(syncBlobDirectory) else { return }
        for name in try FileSystem.names(in: syncBlobDirectory) where VoiceStore.isChecksum(name) {
            try FileSystem.removeFile(syncBlobDirectory + "/" + name)
        }
    }

    /// Stores the audio `checksum` as the memo `uid` (a synced memo): the
    /// blob becomes its file, or, when another memo holds the same audio,
    /// a copy of that one's. Throws `.invalidState` (`blobMissing`) when the
    /// audio is not here.
    public func importSynced(checksum: String, uid: String, title: String, originalName: String, tags: [String],
                             importedAt: Timestamp) throws -> VoiceMemo {
        let options = ImportOptions(title: title, tags: tags, allowDuplicate: true, uid: uid, originalName: originalName)
        let blob = syncBlobDirectory + "/" + checksum
        let memo: VoiceMemo
        if FileSystem.exists(blob) {
            memo = try importWritten(try TemporaryFile(adopting: blob, in: directory, purpose: "sync"), options: options)
        } else if let path = try audioPath(checksum: checksum) {
            memo = try importFile(at: path, options: options)
        } else {
            throw MemoError(.invalidState, hint: .blobMissing, en: "the audio \(checksum) has not been sent",
                            ko: "오디오 \(checksum)이(가) 아직 오지 않았습니다")
        }
        guard memo.checksum == checksum else {
            throw MemoError(.internalFailure, en: "the audio stored is not \(checksum)", ko: "저장된 오디오가 \(checksum)이(가) 아닙니다")
        }
        try connection.execute("UPDATE voice_memos SET imported_at = ? WHERE id = ?", importedAt.secondsSince1970, memo.id)
        return memo
    }
}

/// A blob being received: bytes appended, locked against a second writer.
public final class SyncBlobWriter {
    public let path: String
    private var descriptor: Int32

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close() }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        try FileSystem.writeAll(descriptor, base, count: bytes.count, path: path)
    }

    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
    }
}

extension MemoError.Hint {
    /// A resumed transfer must start where the bytes received end.
    public static let blobOffset = MemoError.Hint(rawValue: "sync_blob_offset")
    /// A change names audio the hub has not received: send it first.
    public static let blobMissing = MemoError.Hint(rawValue: "sync_blob_missing")
}
