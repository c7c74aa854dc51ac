import MemoCore
import SQLite
import VoiceMemos
#if canImport(Glibc)
import Glibc
#endif

/// A backup folder that passed every check `verify` makes.
public struct VerifiedBackup: Sendable {
    /// The folder, absolute.
    public let path: String
    public let manifest: BackupManifest
    public let databaseBytes: Int64
    public let voiceBytes: Int64

    func filePath(_ entry: BackupManifest.Entry) -> String { path + "/" + entry.path }

    /// Checks the backup in `directory` without writing anything anywhere:
    /// its MANIFEST lists only files a backup holds, every one of them is
    /// there with the bytes MANIFEST records, and the database opens, is
    /// memoapp's, was not made by a newer memoapp, passes
    /// `PRAGMA integrity_check`, and holds exactly the tables, indexes,
    /// triggers and views its recorded migrations make (`SchemaCheck`).
    /// - Parameter progress: called with each file checked and the number of
    ///   files (the database's own checks count as the last one).
    /// - Throws: `.noInput` when `directory` is missing or unreadable;
    ///   `.badInput` naming the file for anything else.
    public static func verify(_ directory: String, progress: ((Int, Int) -> Void)? = nil) throws -> VerifiedBackup {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            let reason = String(cString: strerror(errno))
            throw MemoError(.noInput, en: "cannot open the backup \(directory): \(reason)",
                            ko: "백업 \(directory)을(를) 열 수 없습니다: \(reason)")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR, let path = BackupFiles.realPath(directory),
              access(path, R_OK | X_OK) == 0 else {
            throw MemoError(.noInput, en: "\(directory) is not a folder memoapp can read",
                            ko: "\(directory)은(는) memoapp이 읽을 수 있는 폴더가 아닙니다")
        }
        let manifest = try readManifest(in: path)
        var databaseBytes: Int64 = 0
        var voiceBytes: Int64 = 0
        let entries = [manifest.database] + manifest.voiceFiles
        let steps = entries.count + 1
        for (index, entry) in entries.enumerated() {
            let size = try check(entry, in: path)
            if entry == manifest.database { databaseBytes = size } else { voiceBytes += size }
            progress?(index + 1, steps)
        }
        try checkDatabase(path + "/" + BackupManifest.databasePath)
        progress?(steps, steps)
        return VerifiedBackup(path: path, manifest: manifest, databaseBytes: databaseBytes, voiceBytes: voiceBytes)
    }

    // MARK: - Private

    private static func readManifest(in path: String) throws -> BackupManifest {
        let manifestPath = path + "/" + BackupManifest.fileName
        switch BackupFiles.kind(of: manifestPath) {
        case .regularFile:
            break
        case .absent:
            throw refusal(en: "\(path) is not a memoapp backup: it has no MANIFEST (a backup that was interrupted has none)",
                          ko: "\(path)은(는) memoapp 백업이 아닙니다: MANIFEST가 없습니다 (중단된 백업에는 없습니다)")
        default:
            throw refusal(en: "\(manifestPath) is not a regular file", ko: "\(manifestPath)이(가) 일반 파일이 아닙니다")
        }
        guard let bytes = try BackupFiles.contents(of: manifestPath, limit: BackupManifest.maximumSize) else {
            throw refusal(en: "\(manifestPath) is too large to be a memoapp MANIFEST",
                          ko: "\(manifestPath)이(가) memoapp MANIFEST라기에는 너무 큽니다")
        }
        return try BackupManifest.parse(bytes, name: manifestPath)
    }

    /// The file's size, once its bytes are known to be those MANIFEST records.
    private static func check(_ entry: BackupManifest.Entry, in path: String) throws -> Int64 {
        let filePath = path + "/" + entry.path
        let summary: ChecksummedCopy.Summary
        do {
            summary = try ChecksummedCopy.checksum(ofFileAt: filePath)
        } catch let error as MemoError where error.kind == .noInput {
            throw refusal(en: "\(filePath) is listed in MANIFEST but cannot be read (\(error.message.en))",
                          ko: "\(filePath)이(가) MANIFEST에 있지만 읽을 수 없습니다 (\(error.message.ko))")
        }
        guard summary.checksum == entry.checksum else {
            throw refusal(en: "\(filePath) is damaged: its checksum is \(summary.checksum), MANIFEST records \(entry.checksum)",
                          ko: "\(filePath)이(가) 손상되었습니다: 체크섬이 \(summary.checksum)인데 MANIFEST에는 \(entry.checksum)입니다")
        }
        return summary.size
    }

    private static func checkDatabase(_ databasePath: String) throws {
        do {
            let connection = try MemoDatabase.connectReadingOnly(databasePath)
            let applicationID = try connection.applicationID
            guard applicationID == Configuration.memoapp.applicationID else {
                throw refusal(en: "\(databasePath) is not a memoapp database (application_id \(applicationID))",
                              ko: "\(databasePath)은(는) memoapp 데이터베이스가 아닙니다 (application_id \(applicationID))")
            }
            let known = Set(Schema.migrator.migrations.map(\.name))
            let unknown = try Schema.migrator.appliedNames(in: connection).filter { !known.contains($0) }
            guard unknown.isEmpty else {
                throw refusal(en: "\(databasePath) was made by a newer memoapp (migrations this one does not know: \(unknown.joined(separator: ", "))); upgrade memoapp to restore it",
                              ko: "\(databasePath)은(는) 더 새로운 memoapp이 만들었습니다 (이 버전이 모르는 마이그레이션: \(unknown.joined(separator: ", "))). memoapp을 업그레이드한 뒤 복원하세요")
            }
            let lines = try connection.query("PRAGMA integrity_check(10)") { $0.string(0) }
            guard lines == ["ok"] else {
                throw refusal(en: "\(databasePath) is damaged: \(lines.joined(separator: "; "))",
                              ko: "\(databasePath)이(가) 손상되었습니다: \(lines.joined(separator: "; "))")
            }
            // A trigger or view planted in the copy would run inside memoapp's
            // own writes once restored: the schema must be memoapp's own.
            let differences = try SchemaCheck.differences(in: connection)
            guard differences.isEmpty else {
                let shown = differences.prefix(3).map(\.description)
                let more = differences.count > 3 ? " (+\(differences.count - 3))" : ""
                throw refusal(
                    en: "\(databasePath) holds a schema memoapp did not make: "
                        + shown.map(\.en).joined(separator: "; ") + more,
                    ko: "\(databasePath)의 스키마가 memoapp이 만든 것이 아닙니다: "
                        + shown.map(\.ko).joined(separator: "; ") + more)
            }
            try checkValues(connection, databasePath)
        } catch let error as SQLiteError {
            throw refusal(en: "\(databasePath) cannot be read as a database: \(error.message) [\(error.codeName)]",
                          ko: "\(databasePath)을(를) 데이터베이스로 읽을 수 없습니다: \(error.message) [\(error.codeName)]")
        }
    }

    /// What enters by a restore is range-checked as an import's values are:
    /// a row memoapp would not store (a time outside the years 1 to 9999, a
    /// countdown of 1e19 seconds) is refused here, not stored. A backup of an
    /// older memoapp whose tables its migrations have yet to make is checked
    /// by doctor after the restore instead.
    private static func checkValues(_ connection: Connection, _ databasePath: String) throws {
        guard try DoctorExamination.hasValueTables(connection) else { return }
        let problems: [StoredValueProblem]
        do {
            problems = try connection.readTransaction { try DoctorExamination.storedValueProblems(in: connection) }
        } catch is SQLiteError {
            return
        }
        guard !problems.isEmpty else { return }
        let shown = problems.prefix(3).map { "\($0.table) \($0.id): " + $0.problems.joined(separator: ", ") }
            .joined(separator: "; ") + (problems.count > 3 ? "; \(problems.count - 3) more" : "")
        throw refusal(en: "\(databasePath) holds values memoapp does not store (\(shown))",
                      ko: "\(databasePath)에 memoapp이 저장하지 않는 값이 있습니다 (\(shown))")
    }

    private static func refusal(en: String, ko: String) -> MemoError {
        MemoError(.badInput, en: en + "; nothing was restored", ko: ko + ". 아무것도 복원하지 않았습니다")
    }
}
