import MemoCore
import SQLite
import VoiceMemos
#if canImport(Glibc)
import Glibc
#endif

/// What `memoapp restore` did.
public struct RestoreResult: Sendable {
    /// The data home, as resolved.
    public let home: String
    public let backup: VerifiedBackup
    /// What the restored database holds (after migrations); nil when a
    /// step after the restore stopped before it could be counted.
    public let contents: BackupContents?
    /// The data home had data, which the backup replaced.
    public let replacedData: Bool
    /// Audio files of the replaced data that no restored memo names, removed.
    public let removedFiles: [String]
    /// What became of the server's tokens and sessions (see
    /// `RestoredAccess`); nil when a step after the restore stopped first.
    public let access: RestoredAccess?
    /// What went wrong after the backup's data was in place (flushing the
    /// folder, opening and migrating it, removing the replaced audio): the
    /// restore happened, and this is not "nothing changed".
    public let problem: Failure?
}

/// Brings a verified backup into a data home (created, 0700, when absent).
///
/// ## Order
/// The audio files come first (each by temporary file in `voice/`, fsync,
/// rename; the folder fsynced), then the database, in one step that either
/// happens whole or not at all; then the normal opening applies the
/// migrations of a backup made by an older memoapp, and the files of the
/// replaced data that no restored memo names are removed. A failure before
/// the database step removes the audio files it added, so the data home is
/// as it was; a failure after it is no failure of the restore, which has
/// happened: it is returned as the result's `problem`.
///
/// ## The database step
/// When the data home's database opens, the backup's database is copied
/// into it with SQLite's backup API: one write transaction on the live file.
/// Other memoapp processes that have it open see the old content or the
/// restored one, never a mix, and go on working on the restored one; the
/// WAL and its index stay coherent because SQLite itself writes them.
///
/// When there is no database yet, or it cannot be opened (damaged, not
/// memoapp's; only with --force), the file is replaced instead: the old
/// `-wal` and `-shm` are removed first (a stale WAL left beside the new file
/// would be replayed into it on the next opening), then the copy is renamed
/// over `memoapp.db`. A process that still has the old file open goes on
/// with the old, unlinked file and its WAL, and whatever it writes then is
/// lost: stop other memoapp processes before restoring over a damaged
/// database.
public struct Restorer {
    public let workspace: Workspace
    public let backup: VerifiedBackup
    /// Replace a data home that has data.
    public let force: Bool

    public init(workspace: Workspace, backup: VerifiedBackup, force: Bool) {
        self.workspace = workspace
        self.backup = backup
        self.force = force
    }

    var home: DataHome { workspace.home }

    /// - Parameter progress: called with each audio file installed and their
    ///   number (the database, installed last, is quick next to them).
    public func run(progress: ((Int, Int) -> Void)? = nil) throws -> RestoreResult {
        let homeExisted = BackupFiles.kind(of: home.path) != .absent
        let voiceExisted = BackupFiles.kind(of: home.voiceDirectory) != .absent
        func removeFoldersThisRunMade() {
            // rmdir leaves any that are not empty.
            if !voiceExisted { rmdir(home.voiceDirectory) }
            if !homeExisted { rmdir(home.path) }
        }
        try home.create()
        // Held from before the data home is judged until the database is in:
        // the audio installed first has no rows yet, so no voice command may
        // sweep it as left over, and a second restore waits its turn.
        var libraryLock: VoiceLibraryLock? = try VoiceLibraryLock.exclusive(in: home.voiceDirectory)
        let state = HomeState.of(home, restoring: backup.manifest)
        if case let .hasData(reason) = state, !force {
            libraryLock = nil
            removeFoldersThisRunMade()
            throw MemoError(.invalidState,
                            hint: .force,
                            en: "the data home \(home.path) already has data (\(reason.en)), and restoring replaces all of it",
                            ko: "데이터 폴더 \(home.path)에 이미 데이터가 있습니다 (\(reason.ko)). 복원하면 모두 바뀝니다")
        }
        removeAbandonedTemporaries()
        // Read before the backup replaces them: this home's revocations
        // must outlive the restore (see `RestoredAccess`).
        let credentials = HomeCredentials.read(home)
        let installer = VoiceLibraryInstaller(directory: home.voiceDirectory)
        var isDatabaseInstalled = false
        var access: RestoredAccess?
        var problem: Error?
        do {
            let voiceFiles = backup.manifest.voiceFiles
            for (index, entry) in voiceFiles.enumerated() {
                try installer.install(from: backup.filePath(entry), as: entry.voiceFileName ?? "", checksum: entry.checksum)
                progress?(index + 1, voiceFiles.count)
            }
            try installer.finish()
            access = try installDatabase(credentials) { isDatabaseInstalled = true }
        } catch {
            guard isDatabaseInstalled else {
                installer.undo()
                libraryLock = nil
                removeFoldersThisRunMade()
                throw error
            }
            problem = error
        }
        libraryLock?.release()
        // From here on the backup's data is in place, whatever fails.
        var contents: BackupContents?
        var removed: [String] = []
        do {
            let connection = try workspace.database()
            // The backup brought its own change log, which tells nothing of
            // how the items changed from those it replaced.
            // Nor do its sync names: a restored hub's devices must take a
            // fresh copy and send back what the backup lacks, and the hub
            // a restored device syncs with counts its changes afresh.
            try connection.writeTransaction {
                try ChangeLog.noteEverythingChanged(in: connection)
                try SyncSchema.renewIdentity(in: connection)
            }
            removed = try VoiceStore(connection: connection, directory: home.voiceDirectory,
                                     clock: workspace.clock).removeLeftovers()
            contents = try BackupContents(counting: connection)
        } catch {
            problem = problem ?? error
        }
        return RestoreResult(home: home.path, backup: backup, contents: contents, replacedData: state.hasData,
                             removedFiles: removed, access: access, problem: problem.map(Failure.init))
    }

    // MARK: - Private

    /// The purpose word of the database copy a restore makes in the data home.
    static let temporaryPurpose = "restore"

    /// Copies the backup's database next to the live one (checking its bytes
    /// again), migrates the copy and puts the home's credentials into it
    /// (`RestoredAccess`), then puts it in place; `installed` runs once it is.
    ///
    /// The credentials go into the copy, not into the installed database
    /// afterwards: between the two, a running server would have seen the
    /// backup's tokens (a revoked one accepted, a valid one refused and its
    /// event streams ended).
    private func installDatabase(_ credentials: HomeCredentials.Reading, installed: () -> Void) throws -> RestoredAccess {
        // Locked while it is this run's (see `TemporaryFile`): a later restore
        // removes it only once this one is gone.
        let temporary = try TemporaryFile(in: home.path, purpose: Restorer.temporaryPurpose, fileExtension: "db")
        let output = temporary.descriptor
        let temporaryPath = temporary.path
        defer { temporary.discard() }
        let sourcePath = backup.filePath(backup.manifest.database)
        let input = try ChecksummedCopy.openRegularFile(sourcePath)
        defer { close(input) }
        let copied = try ChecksummedCopy.copy(from: input, sourcePath: sourcePath, to: output, destinationPath: temporaryPath)
        guard copied.checksum == backup.manifest.database.checksum else {
            throw MemoError(.badInput, en: "\(sourcePath) changed while it was being restored; nothing was restored",
                            ko: "\(sourcePath)이(가) 복원하는 동안 바뀌었습니다. 아무것도 복원하지 않았습니다")
        }
        let access = try {
            let copy = try MemoDatabase.connect(temporaryPath)
            try Schema.migrator.apply(to: copy)
            let access = try copy.writeTransaction { try HomeCredentials.apply(credentials, in: copy) }
            // Back out of WAL (which opening it as memoapp's turned on): the
            // WAL is folded in and removed, so the read-only reader below
            // leaves no -wal or -shm of the copy in the home. The installed
            // database is in WAL mode again whichever way it goes in (the
            // backup API keeps the live file's mode; a renamed file is set
            // to WAL when next opened).
            _ = try copy.queryFirst("PRAGMA journal_mode = DELETE") { $0.string(0) }
            return access
        }()
        try FileSystem.fsyncFile(output, path: temporaryPath)

        if let live = openLiveDatabase(pageSizeOf: temporaryPath) {
            try MemoDatabase.connectReadingOnly(temporaryPath).backup(into: live)
            installed()
        } else {
            try FileSystem.removeFile(home.databasePath + "-wal")
            try FileSystem.removeFile(home.databasePath + "-shm")
            try FileSystem.rename(temporaryPath, to: home.databasePath)
            installed()
            try FileSystem.fsyncDirectory(home.path)
        }
        return access
    }

    /// The data home's database when it can take the backup API's copy: it
    /// has content, opens as memoapp's, and has the copy's page size.
    private func openLiveDatabase(pageSizeOf copyPath: String) -> Connection? {
        guard !HomeState.isDatabaseEmpty(home) else { return nil }
        guard let live = try? MemoDatabase.connect(home.databasePath),
              let copy = try? MemoDatabase.connectReadingOnly(copyPath),
              let livePageSize = try? live.queryFirst("PRAGMA page_size", map: { $0.int(0) }),
              let copyPageSize = try? copy.queryFirst("PRAGMA page_size", map: { $0.int(0) }),
              livePageSize == copyPageSize else { return nil }
        return live
    }

    /// Removes the database copies an interrupted restore left in the data
    /// home: those whose writer is gone (their lock is free), whatever their age.
    private func removeAbandonedTemporaries() {
        TemporaryFile.removeAbandoned(in: home.path, purposes: [Restorer.temporaryPurpose])
    }
}

/// Whether a data home has data that a restore would replace.
enum HomeState {
    case empty
    /// Why it counts as having data, for the message.
    case hasData(Localized)

    var hasData: Bool {
        if case .hasData = self { return true }
        return false
    }

    /// Looks without creating or changing anything: audio files in `voice/`,
    /// rows in any table but memoapp's own bookkeeping (migrations, the
    /// onboarding state, the change log: entries of items since removed;
    /// sync's records: its names for the home, copies and removals of items),
    /// or a database that cannot be read (it may hold data).
    ///
    /// Audio files with no database beside them that are all files of the
    /// backup being restored (their names carry their checksums) are what a
    /// restore of that backup stopped before its database went in leaves:
    /// they do not count, so running the same restore again finishes the job.
    /// Any other audio counts, since it may be the only copy of a recording.
    static func of(_ home: DataHome, restoring manifest: BackupManifest) -> HomeState {
        if VoiceLibraryInstaller.hasFiles(in: home.voiceDirectory)
            && !(isDatabaseEmpty(home) && holdsOnlyFiles(of: manifest, in: home.voiceDirectory)) {
            return .hasData(Localized(en: "voice/ holds audio files", ko: "voice/에 오디오 파일이 있습니다"))
        }
        if isDatabaseEmpty(home) { return .empty }
        do {
            let connection = try MemoDatabase.connect(home.databasePath)
            let tables = try connection.query("""
                SELECT name FROM pragma_table_list
                WHERE schema = 'main' AND type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
                    AND name NOT IN ('schema_migrations', 'onboarding_state', 'item_changes')
                    AND name NOT LIKE 'sync\\_%' ESCAPE '\\'
                ORDER BY name
                """) { $0.string(0) }
            var filled: [String] = []
            for table in tables {
                // A table name cannot be a bound value; it comes from the schema and is quoted.
                let quoted = "\"" + table.replacingAll("\"", with: "\"\"") + "\""
                if try connection.queryFirst("SELECT EXISTS (SELECT 1 FROM \(quoted))", map: { $0.bool(0) }) == true {
                    filled.append(table)
                }
            }
            guard filled.isEmpty else {
                let list = filled.joined(separator: ", ")
                return .hasData(Localized(en: "rows in \(list)", ko: "\(list)에 행이 있습니다"))
            }
            return .empty
        } catch let error as SQLiteError {
            return .hasData(Localized(en: "its database cannot be read: \(error.message)",
                                      ko: "데이터베이스를 읽을 수 없습니다: \(error.message)"))
        } catch {
            return .hasData(Localized(en: "its database cannot be read: \(error)", ko: "데이터베이스를 읽을 수 없습니다: \(error)"))
        }
    }

    /// Every visible file in `directory` is one `manifest` lists.
    static func holdsOnlyFiles(of manifest: BackupManifest, in directory: String) -> Bool {
        let listed = Set(manifest.voiceFiles.compactMap(\.voiceFileName))
        guard let names = try? FileSystem.names(in: directory) else { return false }
        return names.allSatisfy { $0.hasPrefix(".") || listed.contains($0) }
    }

    /// No database file, or one with nothing in it or in its WAL (a first
    /// run that stopped before setting it up).
    static func isDatabaseEmpty(_ home: DataHome) -> Bool {
        var info = stat()
        guard stat(home.databasePath, &info) == 0 else { return true }
        var walInfo = stat()
        let walSize = stat(home.databasePath + "-wal", &walInfo) == 0 ? Int(walInfo.st_size) : 0
        return info.st_size == 0 && walSize == 0
    }
}
