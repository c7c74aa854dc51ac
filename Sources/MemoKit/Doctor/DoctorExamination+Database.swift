import MemoCore
import SQLite
#if canImport(Glibc)
import Glibc
#endif

extension DoctorExamination {
    static let databaseTitle = ("database", Localized(en: "database", ko: "데이터베이스"))

    /// The database exists, is SQLite, is memoapp's, and was not made by a
    /// newer memoapp. Opens it for the checks after this one.
    static func database(at home: DataHome) -> (DoctorCheck, DatabaseSight) {
        var sight = DatabaseSight()
        var check = DoctorCheck(DoctorExamination.databaseTitle.0, title: DoctorExamination.databaseTitle.1)
        let path = home.databasePath
        let quoted = ShellText.quoted(path)
        var info = stat()
        guard stat(path, &info) == 0 else {
            check.add(DoctorFinding(
                en: "there is no database (\(path))",
                ko: "데이터베이스(\(path))가 없습니다",
                fixEn: "run 'memoapp onboard' to make a new one; if you had data here, restore it from your backup first",
                fixKo: "'memoapp onboard'를 실행해 새로 만드세요. 여기에 데이터가 있었다면 먼저 백업에서 복원하세요"))
            sight.unavailable = Localized(en: "there is no database", ko: "데이터베이스가 없습니다")
            return (check, sight)
        }
        // In WAL mode a new database's first pages live in the -wal file until
        // a checkpoint, so an empty main file is only empty without a -wal.
        var walInfo = stat()
        let walSize = stat(path + "-wal", &walInfo) == 0 ? Int(walInfo.st_size) : 0
        if info.st_size == 0 && walSize == 0 {
            check.add(DoctorFinding(
                en: "the database is empty: a first run stopped before setting it up",
                ko: "데이터베이스가 비어 있습니다: 첫 실행이 준비를 마치기 전에 멈췄습니다",
                fixEn: "run 'memoapp onboard status', which sets it up",
                fixKo: "'memoapp onboard status'를 실행하면 준비됩니다"))
            sight.unavailable = Localized(en: "the database is empty", ko: "데이터베이스가 비어 있습니다")
            return (check, sight)
        }
        let restore = Localized(
            en: "move it aside (mv \(quoted) \(quoted).broken) and restore your backup; memoapp leaves it untouched",
            ko: "옮겨 두고(mv \(quoted) \(quoted).broken) 백업에서 복원하세요. memoapp은 이 파일을 건드리지 않습니다")
        if info.st_size > 0, !DoctorExamination.hasSQLiteHeader(path) {
            check.add(DoctorFinding(
                problem: Localized(en: "the database is not a SQLite file (its header is missing or overwritten)",
                                   ko: "데이터베이스가 SQLite 파일이 아닙니다 (헤더가 없거나 덮어써졌습니다)"),
                fix: restore))
            sight.markUnusable()
            return (check, sight)
        }
        let opened: Connection
        do {
            opened = try MemoDatabase.connect(path)
            let unknown = try Schema.migrator.appliedNames(in: opened)
                .filter { name in !Schema.migrator.migrations.contains { $0.name == name } }
            if !unknown.isEmpty {
                let names = unknown.joined(separator: ", ")
                check.add(DoctorFinding(
                    en: "the database was made by a newer memoapp (migrations this one does not know: \(names))",
                    ko: "더 새로운 memoapp이 만든 데이터베이스입니다 (이 버전이 모르는 마이그레이션: \(names))",
                    fixEn: "upgrade memoapp; this version leaves the database untouched",
                    fixKo: "memoapp을 업그레이드하세요. 이 버전은 데이터베이스를 건드리지 않습니다"))
                sight.markUnusable()
                return (check, sight)
            }
        } catch let error as SQLiteError {
            check.add(DoctorExamination.openFailure(error, home: home.path, restore: restore))
            sight.markUnusable()
            return (check, sight)
        } catch {
            check.add(DoctorFinding(problem: Localized(verbatim: String(describing: error)), fix: restore))
            sight.markUnusable()
            return (check, sight)
        }
        sight.connection = opened
        sight.sizeBeforeOpening = Int64(info.st_size)
        sight.hadWALContent = walSize > 0
        let kibibytes = (Int(info.st_size) + walSize + 1023) / 1024
        check.summary = Localized(en: "opens (\(kibibytes) KiB)", ko: "열림 (\(kibibytes) KiB)")
        return (check, sight)
    }

    /// `PRAGMA integrity_check`: every page, index and constraint SQLite can verify.
    static func integrity(of database: DatabaseSight, home: DataHome) -> DoctorCheck {
        var check = DoctorCheck("integrity", title: Localized(en: "integrity", ko: "무결성"))
        guard let connection = database.connection else { return check.skipped(because: database.skipReason) }
        let quoted = ShellText.quoted(home.databasePath)
        let fix = Localized(
            en: "stop writing to it; keep a copy (cp \(quoted)* to a safe place), then restore your backup or "
                + "recover what SQLite can: sqlite3 \(quoted) .recover | sqlite3 recovered.db",
            ko: "더 쓰지 마세요. 복사본을 남긴 뒤(cp \(quoted)* 안전한 곳) 백업에서 복원하거나 SQLite로 살릴 수 있는 만큼 "
                + "살리세요: sqlite3 \(quoted) .recover | sqlite3 recovered.db")
        do {
            if let cut = try cutShort(connection, database) {
                check.add(DoctorFinding(problem: cut, fix: fix))
            }
            let lines = try connection.query("PRAGMA integrity_check(100)") { $0.string(0) }
            if lines == ["ok"] && check.status == .ok {
                check.summary = Localized(en: "PRAGMA integrity_check: ok", ko: "PRAGMA integrity_check: ok")
                return check
            }
            if lines == ["ok"] { return check }
            let shown = lines.prefix(5).joined(separator: "; ")
            let more = lines.count > 5 ? " (+\(lines.count - 5))" : ""
            check.add(DoctorFinding(
                problem: Localized(en: "the database is damaged: \(shown)\(more)",
                                   ko: "데이터베이스가 손상되었습니다: \(shown)\(more)"),
                fix: fix))
        } catch let error as SQLiteError {
            check.add(DoctorFinding(
                problem: Localized(en: "the integrity check could not finish: \(error.message) [\(error.codeName)]",
                                   ko: "무결성 검사를 마칠 수 없습니다: \(error.message) [\(error.codeName)]"),
                fix: fix))
        } catch {
            check.add(DoctorFinding(problem: Localized(verbatim: String(describing: error)), fix: fix))
        }
        return check
    }

    /// `PRAGMA foreign_key_check`: rows that point at rows that are gone
    /// (possible only when something wrote with foreign keys off).
    static func foreignKeys(of database: DatabaseSight, home: DataHome) -> DoctorCheck {
        var check = DoctorCheck("foreign_keys", title: Localized(en: "foreign keys", ko: "외래 키"))
        guard let connection = database.connection else { return check.skipped(because: database.skipReason) }
        do {
            struct Group: Hashable { let table: String; let parent: String; let key: Int }
            var counts: [Group: Int] = [:]
            var order: [Group] = []
            for group in try connection.query("PRAGMA foreign_key_check", map: {
                Group(table: $0.string(0), parent: $0.string(2), key: $0.int(3))
            }) {
                if counts[group] == nil { order.append(group) }
                counts[group, default: 0] += 1
            }
            for group in order {
                let count = counts[group] ?? 0
                let columns = try connection.queryFirst(
                    "SELECT \"from\", \"to\" FROM pragma_foreign_key_list(?) WHERE id = ?", group.table, group.key) {
                    ($0.string(0), $0.optionalString(1) ?? "rowid")
                }
                let delete = columns.map { from, to in
                    "sqlite3 \(ShellText.quoted(home.databasePath)) \"DELETE FROM \(group.table) WHERE "
                        + "\(from) NOT IN (SELECT \(to) FROM \(group.parent))\""
                } ?? "sqlite3 \(ShellText.quoted(home.databasePath)) 'PRAGMA foreign_key_check'"
                check.add(DoctorFinding(
                    en: "\(count) \(count == 1 ? "row" : "rows") of \(group.table) \(count == 1 ? "points" : "point") at \(group.parent) rows that do not exist",
                    ko: "\(group.table)의 행 \(count)개가 없는 \(group.parent) 행을 가리킵니다",
                    fixEn: "remove the dangling rows: \(delete)",
                    fixKo: "가리킬 곳이 없는 행을 지우세요: \(delete)"))
            }
            if check.status == .ok {
                check.summary = Localized(en: "PRAGMA foreign_key_check: none broken",
                                          ko: "PRAGMA foreign_key_check: 끊어진 참조 없음")
            }
        } catch {
            check.add(DoctorFinding(
                problem: Localized(en: "the foreign key check could not finish: \(error)",
                                   ko: "외래 키 검사를 마칠 수 없습니다: \(error)"),
                fix: Localized(en: "see the integrity check above", ko: "위의 무결성 검사를 보세요")))
        }
        return check
    }

    /// Every migration this memoapp knows is applied (a first run cut short,
    /// or a database copied from an older memoapp and never opened since).
    static func migrations(of database: DatabaseSight) -> DoctorCheck {
        var check = DoctorCheck("migrations", title: Localized(en: "migrations", ko: "마이그레이션"))
        guard let connection = database.connection else { return check.skipped(because: database.skipReason) }
        do {
            let applied = Set(try Schema.migrator.appliedNames(in: connection))
            let known = Schema.migrator.migrations.map(\.name)
            let missing = known.filter { !applied.contains($0) }
            if missing.isEmpty {
                check.summary = Localized(en: "all \(known.count) applied", ko: "\(known.count)개 모두 적용됨")
                return check
            }
            let names = missing.joined(separator: ", ")
            check.add(DoctorFinding(
                en: "migrations not applied (\(missing.count) of \(known.count)): \(names)",
                ko: "마이그레이션 \(known.count)개 중 \(missing.count)개가 적용되지 않았습니다: \(names)",
                fixEn: "run 'memoapp onboard status': every command applies them first",
                fixKo: "'memoapp onboard status'를 실행하세요. 모든 명령이 먼저 적용합니다"))
        } catch {
            check.add(DoctorFinding(
                problem: Localized(en: "cannot read the applied migrations: \(error)",
                                   ko: "적용된 마이그레이션을 읽을 수 없습니다: \(error)"),
                fix: Localized(en: "see the integrity check above", ko: "위의 무결성 검사를 보세요")))
        }
        return check
    }

    /// The tables, indexes, triggers and views are exactly what the applied
    /// migrations make (`SchemaCheck`): a trigger planted in a restored or
    /// copied database runs inside every write, and integrity_check does not
    /// see it.
    static func schema(of database: DatabaseSight, home: DataHome) -> DoctorCheck {
        var check = DoctorCheck("schema", title: Localized(en: "schema", ko: "스키마"))
        guard let connection = database.connection else { return check.skipped(because: database.skipReason) }
        let database = ShellText.quoted(home.databasePath)
        do {
            let differences = try SchemaCheck.differences(in: connection)
            for difference in differences {
                let object = difference.object
                let fix: Localized
                if case .unexpected = difference {
                    let drop = "DROP \(object.type.uppercased()) \"\(object.name.replacingAll("\"", with: "\"\""))\""
                    fix = Localized(
                        en: "look at it (sqlite3 \(database) .schema) and, unless you made it yourself, remove it: "
                            + "sqlite3 \(database) \(ShellText.quoted(drop))",
                        ko: "내용을 확인하고(sqlite3 \(database) .schema) 직접 만든 것이 아니면 지우세요: "
                            + "sqlite3 \(database) \(ShellText.quoted(drop))")
                } else {
                    fix = Localized(
                        en: "restore a backup made before it changed, or export and import into a new data home",
                        ko: "바뀌기 전에 만든 백업에서 복원하거나, 내보낸 뒤 새 데이터 폴더로 가져오세요")
                }
                check.add(DoctorFinding(problem: difference.description, fix: fix))
            }
            if differences.isEmpty {
                check.summary = Localized(en: "every table, index, trigger and view is memoapp's own",
                                          ko: "모든 테이블, 인덱스, 트리거, 뷰가 memoapp의 것")
            }
        } catch {
            check.add(DoctorFinding(
                problem: Localized(en: "cannot compare the schema: \(error)", ko: "스키마를 비교할 수 없습니다: \(error)"),
                fix: Localized(en: "see the integrity check above", ko: "위의 무결성 검사를 보세요")))
        }
        return check
    }

    // MARK: - Private

    /// Whether the main file was cut short, which integrity_check does not
    /// always see (SQLite reads missing bytes as zeros, and a page's tail is
    /// often unused). The file always holds whole pages; with no -wal content
    /// it holds every page of the database. Measured before doctor opened it
    /// (opening makes an empty -wal).
    static func cutShort(_ connection: Connection, _ database: DatabaseSight) throws -> Localized? {
        guard let size = database.sizeBeforeOpening, !database.hadWALContent else { return nil }
        let pageSize = try connection.queryFirst("PRAGMA page_size") { $0.int64(0) } ?? 0
        let pageCount = try connection.queryFirst("PRAGMA page_count") { $0.int64(0) } ?? 0
        guard pageSize > 0 else { return nil }
        if size % pageSize != 0 || size < pageSize * pageCount {
            let expected = pageSize * pageCount
            return Localized(
                en: "the database file was cut short: \(size) bytes, where its header counts \(pageCount) pages of \(pageSize) (\(expected) bytes)",
                ko: "데이터베이스 파일이 잘렸습니다: \(size)바이트인데 헤더는 \(pageSize)바이트 페이지 \(pageCount)개(\(expected)바이트)를 가리킵니다")
        }
        return nil
    }

    /// Whether the file starts with "SQLite format 3\0" and is at least a
    /// header long (https://www.sqlite.org/fileformat.html#the_database_header).
    static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let header = Connection.leadingBytes(of: path, count: 100) else { return true }  // let SQLite say why
        return header.count == 100 && header.prefix(16).elementsEqual(Connection.sqliteMagic)
    }

    /// What a failure to open the database means to the user.
    static func openFailure(_ error: SQLiteError, home: String, restore: Localized) -> DoctorFinding {
        let detail = error.message + (error.systemReason.map { " (\($0))" } ?? "") + " [\(error.codeName)]"
        if error.isDiskFull {
            return DoctorFinding(
                en: "the disk holding the data home is full, so SQLite cannot open the database: \(detail)",
                ko: "데이터 폴더가 있는 디스크가 가득 차서 SQLite가 데이터베이스를 열 수 없습니다: \(detail)",
                fixEn: "free some space on that disk (df -h \(ShellText.quoted(home)))",
                fixKo: "그 디스크의 공간을 확보하세요 (df -h \(ShellText.quoted(home)))")
        }
        if error.isReadOnly {
            return DoctorFinding(
                en: "the data home is on a read-only disk, so SQLite cannot open the database: \(detail)",
                ko: "데이터 폴더가 읽기 전용 디스크에 있어 SQLite가 데이터베이스를 열 수 없습니다: \(detail)",
                fixEn: "mount that disk writable (mount -o remount,rw …), or copy the data home to a writable place",
                fixKo: "그 디스크를 쓰기 가능으로 마운트하거나(mount -o remount,rw …) 데이터 폴더를 쓸 수 있는 곳으로 복사하세요")
        }
        if error.codeName == "SQLITE_NOTADB" && error.message.contains("not a memoapp database") {
            return DoctorFinding(
                en: "the database belongs to another program: \(detail)",
                ko: "다른 프로그램의 데이터베이스입니다: \(detail)",
                fixEn: "point --home or $MEMOAPP_HOME at memoapp's own data home, or move that file away",
                fixKo: "--home 또는 $MEMOAPP_HOME으로 memoapp의 데이터 폴더를 지정하거나, 그 파일을 옮기세요")
        }
        if error.isCorrupt {
            return DoctorFinding(problem: Localized(en: "the database is damaged beyond opening: \(detail)",
                                                    ko: "데이터베이스가 열 수 없을 만큼 손상되었습니다: \(detail)"),
                                 fix: restore)
        }
        return DoctorFinding(
            en: "SQLite cannot open the database: \(detail)",
            ko: "SQLite가 데이터베이스를 열 수 없습니다: \(detail)",
            fixEn: "check that you can read and write the data home and its files (see permissions) and that "
                + "its disk is mounted writable and not full",
            fixKo: "데이터 폴더와 파일을 읽고 쓸 수 있는지(권한 참고), 디스크가 쓰기 가능하게 마운트되어 있고 가득 차지 "
                + "않았는지 확인하세요")
    }
}
