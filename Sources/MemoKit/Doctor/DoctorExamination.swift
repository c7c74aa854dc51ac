import MemoCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

/// One doctor run over a data home: each check a function of what it looks
/// at and of what earlier checks found (the database they opened, whether the
/// audio library loads), handed to it explicitly. Reads only: it creates
/// nothing, repairs nothing, and tells the user how to repair what it finds.
public enum DoctorExamination {
    /// Every check, in order.
    /// - Parameter progress: called after each check with a figure out of a
    ///   total (each check is `DoctorExamination.progressUnitsPerCheck`
    ///   units; the voice library's memo by memo inside its share).
    public static func run(home: DataHome, progress: ((Int64, Int64) -> Void)? = nil) -> DoctorReport {
        var report = DoctorReport(home: home.path)
        let total = Int64(checkCount) * progressUnitsPerCheck
        func add(_ check: DoctorCheck) {
            report.checks.append(check)
            progress?(Int64(report.checks.count) * progressUnitsPerCheck, total)
        }
        let (homeCheck, presence) = dataHome(home)
        add(homeCheck)
        var database = DatabaseSight()
        if presence == .present {
            add(permissions(of: home))
            let (databaseCheck, sight) = self.database(at: home)
            add(databaseCheck)
            database = sight
        } else {
            let reason = presence == .notMadeYet
                ? Localized(en: "memoapp has not been used here yet", ko: "아직 여기서 memoapp을 쓴 적이 없습니다")
                : Localized(en: "there is no data home", ko: "데이터 폴더가 없습니다")
            database.unavailable = reason
            for (name, title) in [permissionsTitle, databaseTitle] {
                add(DoctorCheck(name, title: title).skipped(because: reason))
            }
        }
        report.isDatabaseUnusable = database.isUnusable
        add(integrity(of: database, home: home))
        add(foreignKeys(of: database, home: home))
        add(migrations(of: database))
        add(schema(of: database, home: home))
        let migrated = database.readableByStores()
        add(storedValues(of: migrated, home: home))
        let (audioCheck, isAudioLibraryAvailable) = audioLibrary()
        add(audioCheck)
        let before = Int64(report.checks.count) * progressUnitsPerCheck
        let (voiceCheck, temporaries) = voiceLibrary(of: migrated, home: home,
                                                     isAudioLibraryAvailable: isAudioLibraryAvailable) { done, count in
            guard count > 0 else { return }
            progress?(before + Int64(done) * progressUnitsPerCheck / Int64(count), total)
        }
        add(voiceCheck)
        add(temporaryFiles(in: home, hasHome: presence == .present, skipReason: database.unavailable,
                           voiceTemporaries: temporaries))
        return report
    }

    /// How many checks `run` makes (a test holds it to the report's length).
    static let checkCount = 11
    /// A check's share of the progress figure: room for the voice library's
    /// memos to move the figure within its share.
    static let progressUnitsPerCheck: Int64 = 1000

    /// What the data home check found.
    public enum HomePresence: Sendable {
        case present
        /// It does not exist yet: memoapp has never run with it.
        case notMadeYet
        /// It cannot be looked at, or is not a folder.
        case unreachable
    }

    /// What opening the database found, for the checks that read it.
    struct DatabaseSight {
        /// The database, when it opened.
        var connection: Connection?
        /// Why checks that need the database cannot run, once that is known.
        var unavailable: Localized?
        /// It exists but memoapp cannot use it at all (not SQLite, another
        /// program's, a newer memoapp's, or SQLite refuses to open it).
        var isUnusable = false
        /// The main file's size and whether its -wal held frames, measured
        /// before doctor opened it (for the cut-short check).
        var sizeBeforeOpening: Int64?
        var hadWALContent = false

        /// Why a check that needs the database was not run.
        var skipReason: Localized {
            unavailable ?? Localized(en: "the database did not open", ko: "데이터베이스가 열리지 않았습니다")
        }

        /// This sight for the checks that read items through the stores,
        /// which read every migration's columns: a database an older
        /// memoapp left is skipped by them, saying so. Its migrations are
        /// applied by the next command, not by doctor, which changes nothing.
        func readableByStores() -> DatabaseSight {
            guard let connection, let applied = try? Set(Schema.migrator.appliedNames(in: connection)),
                  Schema.migrator.migrations.contains(where: { !applied.contains($0.name) }) else { return self }
            var sight = self
            sight.connection = nil
            sight.unavailable = Localized(
                en: "the database is an older memoapp's; any command brings it up to date (see migrations)",
                ko: "이전 memoapp의 데이터베이스입니다. 아무 명령이나 실행하면 최신으로 바뀝니다 (마이그레이션 참고)")
            return sight
        }

        mutating func markUnusable() {
            isUnusable = true
            unavailable = Localized(en: "the database cannot be used", ko: "데이터베이스를 쓸 수 없습니다")
        }
    }

    // MARK: - The data home

    static let permissionsTitle = ("permissions", Localized(en: "permissions", ko: "권한"))

    /// The data home is a folder that belongs to this user, or does not
    /// exist yet: the normal state before memoapp's first use, which makes
    /// it, and no problem (the summary says so, naming where it will be).
    static func dataHome(_ home: DataHome) -> (DoctorCheck, presence: HomePresence) {
        var presence = HomePresence.present
        var check = DoctorCheck("data_home", title: Localized(en: "data home", ko: "데이터 폴더"))
        var info = stat()
        guard stat(home.path, &info) == 0 else {
            let code = errno
            if code == ENOENT {
                presence = .notMadeYet
                check.summary = Localized(
                    en: "\(home.path) does not exist yet: memoapp makes it on first use (if your data is elsewhere, point MEMOAPP_HOME at it)",
                    ko: "\(home.path)이 아직 없습니다: memoapp을 처음 쓸 때 만듭니다 (데이터가 다른 곳에 있으면 MEMOAPP_HOME으로 지정하세요)")
            } else {
                presence = .unreachable
                let reason = String(cString: strerror(code))
                check.add(DoctorFinding(
                    en: "cannot look at the data home \(home.path): \(reason)",
                    ko: "데이터 폴더 \(home.path)을 확인할 수 없습니다: \(reason)",
                    fixEn: "check that you may enter every folder above it",
                    fixKo: "상위 폴더마다 들어갈 권한이 있는지 확인하세요"))
            }
            return (check, presence)
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            check.add(DoctorFinding(
                en: "\(home.path) exists but is not a folder",
                ko: "\(home.path)이 있지만 폴더가 아닙니다",
                fixEn: "move that file away, or point MEMOAPP_HOME at another folder",
                fixKo: "그 파일을 옮기거나, MEMOAPP_HOME으로 다른 폴더를 지정하세요"))
            return (check, .unreachable)
        }
        if let finding = DoctorExamination.ownerFinding(home.path, info) {
            check.add(finding)
        }
        var disk = statvfs()
        if statvfs(home.path, &disk) == 0 {
            if disk.f_flag & UInt(ST_RDONLY) != 0 {
                check.add(DoctorFinding(
                    en: "the data home is on a read-only file system: nothing can be saved",
                    ko: "데이터 폴더가 읽기 전용 파일 시스템에 있습니다: 아무것도 저장할 수 없습니다",
                    fixEn: "mount it writable (mount -o remount,rw MOUNTPOINT), or copy the data home to a writable place",
                    fixKo: "쓰기 가능으로 마운트하거나(mount -o remount,rw 마운트지점) 데이터 폴더를 쓸 수 있는 곳으로 복사하세요"))
            } else if UInt64(disk.f_bavail) * UInt64(disk.f_frsize) < DoctorExamination.minimumFreeBytes {
                let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
                check.add(DoctorFinding(
                    en: "the disk holding the data home is full (\(free) bytes free): writes will fail",
                    ko: "데이터 폴더가 있는 디스크가 가득 찼습니다 (남은 공간 \(free)바이트): 저장이 실패합니다",
                    fixEn: "free some space on it (df -h \(ShellText.quoted(home.path)))",
                    fixKo: "공간을 확보하세요 (df -h \(ShellText.quoted(home.path)))"))
            }
        }
        check.summary = Localized(verbatim: home.path)
        return (check, presence)
    }

    /// Below this, SQLite cannot even make its 32 KiB -shm file.
    static let minimumFreeBytes: UInt64 = 64 * 1024

    /// The home and `voice/` are 0700; the database and its -wal and -shm
    /// files are 0600: what memoapp keeps is for its user alone.
    static func permissions(of home: DataHome) -> DoctorCheck {
        var check = DoctorCheck(DoctorExamination.permissionsTitle.0, title: DoctorExamination.permissionsTitle.1)
        let expectations: [(path: String, mode: mode_t, isFolder: Bool)] = [
            (home.path, 0o700, true), (home.voiceDirectory, 0o700, true),
            (home.databasePath, 0o600, false), (home.databasePath + "-wal", 0o600, false),
            (home.databasePath + "-shm", 0o600, false),
        ]
        var examined = 0
        for (path, mode, isFolder) in expectations {
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            examined += 1
            let kind = info.st_mode & S_IFMT
            if kind != (isFolder ? S_IFDIR : S_IFREG) {
                check.add(DoctorFinding(
                    en: "\(path) should be a \(isFolder ? "folder" : "file") but is not",
                    ko: "\(path)은 \(isFolder ? "폴더" : "파일")여야 하는데 그렇지 않습니다",
                    fixEn: "move it away; memoapp makes a new one",
                    fixKo: "다른 곳으로 옮기세요. memoapp이 새로 만듭니다"))
                continue
            }
            let actual = info.st_mode & 0o7777
            if actual != mode {
                let have = DoctorExamination.octal(actual)
                let want = DoctorExamination.octal(mode)
                let who = isFolder ? Localized(en: "only you can open it", ko: "본인만 열 수 있게")
                                   : Localized(en: "only you can read and write it", ko: "본인만 읽고 쓸 수 있게")
                check.add(DoctorFinding(
                    en: "\(path) has mode \(have); it should be \(want) (\(who.en))",
                    ko: "\(path)의 권한이 \(have)입니다 (맞는 권한: \(want), \(who.ko))",
                    fixEn: "chmod \(want.dropFirst()) \(ShellText.quoted(path))",
                    fixKo: "chmod \(want.dropFirst()) \(ShellText.quoted(path))"))
            }
            if path != home.path, let finding = DoctorExamination.ownerFinding(path, info) {
                check.add(finding)
            }
        }
        if check.status == .ok {
            check.summary = Localized(en: "\(examined) \(examined == 1 ? "item" : "items") private to you",
                                      ko: "\(examined)개 모두 본인 전용")
        }
        return check
    }

    // MARK: - Helpers

    /// A finding when `path` belongs to another user than the one running
    /// memoapp (a `sudo memoapp` once, a copied folder).
    static func ownerFinding(_ path: String, _ info: stat) -> DoctorFinding? {
        let user = geteuid()
        guard info.st_uid != user else { return nil }
        return DoctorFinding(
            en: "\(path) belongs to user id \(info.st_uid), not to you (\(user))",
            ko: "\(path)의 소유자가 본인(\(user))이 아니라 사용자 id \(info.st_uid)입니다",
            fixEn: "sudo chown -R \(user) \(ShellText.quoted(path))",
            fixKo: "sudo chown -R \(user) \(ShellText.quoted(path))")
    }

    /// `0644`-style.
    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
