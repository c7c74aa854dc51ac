#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

/// A voice memo's file as one database snapshot names it.
public struct VoiceBackupEntry: Equatable, Sendable {
    /// The memo.
    public let memoID: Int64
    /// The file's name in the library folder.
    public let fileName: String
    /// The XXH3-128 its row records.
    public let recordedChecksum: String
}

/// What copying a snapshot's files gave.
public struct VoiceBackupCopy: Equatable, Sendable {
    /// The files copied, in the snapshot's order (by memo id).
    public let files: [CopiedVoiceFile]
    /// Memos whose file was missing (not copied) or whose bytes did not match
    /// their row's checksum (copied as they are, so that the backup holds the
    /// library as it was).
    public let problems: [VerificationProblem]
}

/// One file copied into a backup.
public struct CopiedVoiceFile: Equatable, Sendable {
    /// Its name, the same in the library folder and in the backup.
    public let fileName: String
    /// The XXH3-128 of the bytes copied.
    public let checksum: String
    /// Bytes copied.
    public let size: Int64
}

/// The audio files of one database snapshot, opened while no other process
/// could commit, so that they can be copied after the lock is released.
///
/// A `voice rm` commits the removal of its row and only then unlinks the
/// file; a trim commits its new file name and then unlinks the old file. So
/// every file a snapshot names exists while no one can commit, and an open
/// descriptor keeps its bytes readable after a later rm or trim unlinks it:
/// the copy matches the snapshot whatever happens meanwhile. Files beyond the
/// descriptor budget are not opened; then `isHoldingEveryFile` is false and
/// `copy(into:)` must run before the lock is released.
public final class VoiceBackupSource {
    /// Every memo's file in the snapshot, by memo id.
    public let entries: [VoiceBackupEntry]
    /// Whether every existing file is open (none was left for lack of descriptors).
    public let isHoldingEveryFile: Bool
    let directory: String
    /// One per entry: an open descriptor, or -1 (not opened).
    private var descriptors: [Int32]
    /// Why an open failed, per entry (nil when it opened or was not tried).
    private var openFailures: [MemoError?]

    init(directory: String, entries: [VoiceBackupEntry], descriptorBudget: Int) {
        self.directory = directory
        self.entries = entries
        var descriptors = [Int32](repeating: -1, count: entries.count)
        var failures = [MemoError?](repeating: nil, count: entries.count)
        var opened = 0
        for (index, entry) in entries.enumerated() where opened < descriptorBudget {
            guard VoiceStore.isLibraryName(entry.fileName) else { continue }
            (descriptors[index], failures[index]) = VoiceBackupSource.openFile(directory + "/" + entry.fileName)
            if descriptors[index] >= 0 { opened += 1 }
        }
        self.descriptors = descriptors
        openFailures = failures
        let failed = failures.filter { $0 != nil }.count
        let misnamed = entries.filter { !VoiceStore.isLibraryName($0.fileName) }.count
        isHoldingEveryFile = opened + failed + misnamed == entries.count
    }

    deinit { closeAll() }

    /// Copies every file into `destination` (created, mode 0700) under its
    /// own name: each new file 0600 and fsynced, then the folder. Checks each
    /// against its row's checksum while copying. Closes the descriptors.
    /// - Parameter progress: called with each file done and the total.
    /// - Throws: `.storage` when a read or a write fails (a full disk says so);
    ///   `destination` may then hold some of the files.
    public func copy(into destination: String, progress: ((Int, Int) -> Void)? = nil) throws -> VoiceBackupCopy {
        defer { closeAll() }
        try FileSystem.makeDirectory(destination)
        var files: [CopiedVoiceFile] = []
        var problems: [VerificationProblem] = []
        for (index, entry) in entries.enumerated() {
            defer { progress?(index + 1, entries.count) }
            guard VoiceStore.isLibraryName(entry.fileName) else {
                // A path in the row: a copy by that name could reach outside the folders.
                problems.append(VoiceBackupSource.problem(.missingFile, entry,
                                                          en: "its file name is not one memoapp makes; not copied",
                                                          ko: "파일 이름이 memoapp이 만드는 형식이 아니어서 복사하지 않았습니다"))
                continue
            }
            let sourcePath = directory + "/" + entry.fileName
            if descriptors[index] < 0 && openFailures[index] == nil {
                (descriptors[index], openFailures[index]) = VoiceBackupSource.openFile(sourcePath)
            }
            let descriptor = descriptors[index]
            guard descriptor >= 0 else {
                if !FileSystem.exists(sourcePath) {
                    problems.append(VoiceBackupSource.problem(.missingFile, entry,
                                                              en: "the file is missing; the backup cannot hold it",
                                                              ko: "파일이 없어 백업에 넣지 못했습니다"))
                } else {
                    // A symbolic link or a FIFO in its place: what it leads to is not the memo's.
                    let reason = openFailures[index]?.message ?? Localized(en: "", ko: "")
                    problems.append(VoiceBackupSource.problem(.missingFile, entry,
                                                              en: "not copied: \(reason.en)",
                                                              ko: "복사하지 않았습니다: \(reason.ko)"))
                }
                continue
            }
            let targetPath = destination + "/" + entry.fileName
            let target = open(targetPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            guard target >= 0 else { throw FileSystem.storageError(.creating, targetPath) }
            defer { close(target) }
            let copied = try ChecksummedCopy.copy(from: descriptor, sourcePath: sourcePath, to: target,
                                                  destinationPath: targetPath)
            try FileSystem.fsyncFile(target, path: targetPath)
            files.append(CopiedVoiceFile(fileName: entry.fileName, checksum: copied.checksum, size: copied.size))
            if copied.checksum != entry.recordedChecksum {
                problems.append(VoiceBackupSource.problem(
                    .checksumMismatch, entry,
                    en: "its bytes changed since import (checksum \(copied.checksum), \(entry.recordedChecksum) recorded); copied as they are",
                    ko: "가져온 뒤 내용이 바뀌었습니다 (체크섬 \(copied.checksum), 기록은 \(entry.recordedChecksum)). 있는 그대로 복사했습니다"))
            }
        }
        try FileSystem.fsyncDirectory(destination)
        return VoiceBackupCopy(files: files, problems: problems)
    }

    // MARK: - Private

    /// Opens a stored file as every one is opened (a regular file, no link
    /// followed, no FIFO waited on): its descriptor, or -1 and why not.
    private static func openFile(_ path: String) -> (Int32, MemoError?) {
        do {
            return (try ChecksummedCopy.openRegularFile(path), nil)
        } catch {
            return (-1, (error as? MemoError) ?? MemoError(.storage, en: "\(error)", ko: "\(error)"))
        }
    }

    private func closeAll() {
        for index in descriptors.indices where descriptors[index] >= 0 {
            close(descriptors[index])
            descriptors[index] = -1
        }
    }

    private static func problem(_ kind: VerificationProblem.Kind, _ entry: VoiceBackupEntry,
                                en: String, ko: String) -> VerificationProblem {
        VerificationProblem(kind: kind, memoID: entry.memoID, fileName: entry.fileName,
                            message: Localized(en: "voice memo \(entry.memoID) (\(entry.fileName)): \(en)",
                                               ko: "음성 메모 \(entry.memoID) (\(entry.fileName)): \(ko)"))
    }
}

extension VoiceStore {
    /// Reads every memo's file name from the connection's current read
    /// transaction and opens the files (up to `descriptorBudget` of them):
    /// see `VoiceBackupSource` for when this is safe. Call it while another
    /// connection holds the write lock and this store's connection is inside
    /// the read transaction whose snapshot the backup copies.
    public func openFilesForBackup(descriptorBudget: Int) throws -> VoiceBackupSource {
        let entries = try connection.query("SELECT id, file_name, checksum FROM voice_memos ORDER BY id") {
            VoiceBackupEntry(memoID: $0.int64(0), fileName: $0.string(1), recordedChecksum: $0.string(2))
        }
        return VoiceBackupSource(directory: directory, entries: entries, descriptorBudget: max(0, descriptorBudget))
    }
}
