import MemoCore
import SQLite
import VoiceMemos
#if canImport(Glibc)
import Glibc
#endif

/// What `memoapp backup` made.
struct BackupResult {
    /// The backup folder, absolute.
    let path: String
    let contents: BackupContents
    let databaseBytes: Int64
    let voiceFiles: [CopiedVoiceFile]
    /// Voice memos whose file was missing or changed (see `VoiceBackupCopy`).
    let problems: [VerificationProblem]

    var voiceBytes: Int64 { voiceFiles.reduce(0) { $0 + $1.size } }
}

/// Writes a backup of a data home into a folder: `memoapp.db` (a compact
/// copy of one snapshot), `voice/` (every file that snapshot names, byte for
/// byte) and `MANIFEST` (their XXH3-128), while other memoapp processes may
/// be writing.
///
/// ## One snapshot for the database and the files
/// The write lock is taken (`BEGIN IMMEDIATE` on the invocation's
/// connection, so writers wait within their busy timeout) only while a second
/// connection starts the read transaction whose snapshot is copied and opens
/// every audio file that snapshot names (see `VoiceBackupSource`). Once the
/// lock is released, the pages are copied from that read transaction and the
/// files from their descriptors; writers go on meanwhile. So every write
/// acknowledged before the backup began is in it, and every voice row has its
/// file. When the files outnumber the descriptors the process may open, they
/// are copied before the lock is released instead (writers then wait longer).
///
/// ## Never mistaken for a good backup
/// Everything is built in a hidden folder inside the destination; the
/// database and `voice/` are renamed into place, and `MANIFEST`, flushed to
/// the disk, last. A backup without a MANIFEST is not one: restore refuses it.
/// A failure removes what this run wrote.
struct BackupWriter {
    let home: DataHome
    /// The destination folder as the user named it: new or empty.
    let destination: String

    /// Descriptors kept free for SQLite (two connections, their journals),
    /// the standard streams and the libraries.
    static let reservedDescriptors = 128

    /// Runs the backup from `database` (the data home's database, migrated).
    /// - Throws: `.invalidState` when the destination is not a new or empty
    ///   folder or lies inside the data home; `.storage` when reading or
    ///   writing fails (a full disk says so).
    /// - Parameter progress: called with each audio file copied and their number.
    func write(from database: Connection, progress: ((Int, Int) -> Void)? = nil) throws -> BackupResult {
        let folder = try BackupDestination.open(destination, home: home)
        defer { folder.release() }
        let work = folder.path + "/.memoapp-backup-\(FileSystem.randomToken()).part"
        do {
            try BackupFiles.makeDirectory(work)
            let result = try build(in: work, from: database, finalPath: folder.path, progress: progress)
            try publish(work, into: folder.path)
            return result
        } catch {
            BackupFiles.removeTree(work)
            folder.removeIfCreated()
            throw BackupWriter.explained(error, destination: folder.path)
        }
    }

    // MARK: - Private

    private func build(in work: String, from database: Connection, finalPath: String,
                       progress: ((Int, Int) -> Void)?) throws -> BackupResult {
        let snapshotPath = work + "/snapshot.db"
        let voicePath = work + "/" + BackupManifest.voiceFolder
        let reader = try Connection(path: home.databasePath, configuration: .memoapp)
        let budget = BackupFiles.availableDescriptors(reserve: BackupWriter.reservedDescriptors)
        let (source, copiedUnderLock): (VoiceBackupSource, VoiceBackupCopy?) = try reader.readTransaction {
            let held = try database.writeTransaction { () -> (VoiceBackupSource, VoiceBackupCopy?) in
                // The reader's snapshot starts with its first read, here,
                // while no one can commit: the state every file below belongs to.
                let store = VoiceStore(connection: reader, directory: home.voiceDirectory)
                let opened = try store.openFilesForBackup(descriptorBudget: budget)
                return (opened, opened.isHoldingEveryFile ? nil : try opened.copy(into: voicePath, progress: progress))
            }
            try reader.backup(to: snapshotPath)
            return held
        }
        let copy = try copiedUnderLock ?? source.copy(into: voicePath, progress: progress)

        // The page copy holds free pages and says WAL; VACUUM INTO makes the
        // compact, self-contained file the backup keeps.
        let databasePath = work + "/" + BackupManifest.databasePath
        do {
            let snapshot = try Connection(path: snapshotPath, configuration: .memoapp)
            try snapshot.vacuum(into: databasePath)
        }
        for suffix in ["", "-wal", "-shm"] { try FileSystem.removeFile(snapshotPath + suffix) }

        let databaseSummary = try ChecksummedCopy.checksum(ofFileAt: databasePath)
        let contents = try BackupContents(counting: Connection(readingOnly: databasePath))
        let manifest = BackupManifest(
            database: BackupManifest.Entry(path: BackupManifest.databasePath, checksum: databaseSummary.checksum),
            voiceFiles: copy.files.map {
                BackupManifest.Entry(path: BackupManifest.voicePrefix + $0.fileName, checksum: $0.checksum)
            })
        try BackupFiles.writeNewFile(work + "/" + BackupManifest.fileName, text: manifest.text)
        try FileSystem.fsyncDirectory(work)
        return BackupResult(path: finalPath, contents: contents, databaseBytes: databaseSummary.size,
                            voiceFiles: copy.files, problems: copy.problems)
    }

    /// Moves the finished parts into the destination, MANIFEST last.
    private func publish(_ work: String, into folder: String) throws {
        for name in [BackupManifest.databasePath, BackupManifest.voiceFolder] {
            try FileSystem.rename(work + "/" + name, to: folder + "/" + name)
        }
        try FileSystem.fsyncDirectory(folder)
        try FileSystem.rename(work + "/" + BackupManifest.fileName, to: folder + "/" + BackupManifest.fileName)
        try FileSystem.fsyncDirectory(folder)
        rmdir(work)
        try? FileSystem.fsyncDirectory(folder)
    }

    /// A full disk met while writing the copy is the destination's disk, not
    /// the data home's (which is what the generic storage message says).
    static func explained(_ error: Error, destination: String) -> Error {
        guard let failure = error as? SQLiteError, failure.isDiskFull else { return error }
        return MemoError(.storage,
                         en: "the disk holding \(destination) is full; no backup was made (\(failure.message))",
                         ko: "\(destination)이(가) 있는 디스크가 가득 찼습니다. 백업을 만들지 않았습니다 (\(failure.message))")
    }
}
