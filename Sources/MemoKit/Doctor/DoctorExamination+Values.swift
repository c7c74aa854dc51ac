import MemoCore
import Notes
import SQLite
import Timers

extension DoctorExamination {
    /// At most this many rows are named; the rest are counted.
    static let maximumNamedRows = 20

    /// Every stored value memoapp would refuse from an import: titles of
    /// several lines, times outside the years 1 to 9999, timers with lengths
    /// or clock readings past what memoapp measures, counters with no id left.
    /// Commands show such rows without failing; this is where they are told.
    static func storedValues(of database: DatabaseSight, home: DataHome) -> DoctorCheck {
        var check = DoctorCheck("stored_values", title: Localized(en: "stored values", ko: "저장된 값"))
        guard let connection = database.connection else { return check.skipped(because: database.skipReason) }
        do {
            guard try DoctorExamination.hasValueTables(connection) else {
                return check.skipped(because: Localized(en: "some tables are missing (see migrations)",
                                                        ko: "일부 테이블이 없습니다 (마이그레이션 참고)"))
            }
            let found = try connection.readTransaction { try DoctorExamination.storedValueProblems(in: connection) }
            let database = ShellText.quoted(home.databasePath)
            for problem in found.prefix(DoctorExamination.maximumNamedRows) {
                let detail = problem.problems.joined(separator: "; ")
                let name = DoctorExamination.rowName(problem)
                check.add(DoctorFinding(problem: Localized(en: "\(name.en): \(detail)", ko: "\(name.ko): \(detail)"),
                                        fix: DoctorExamination.fix(for: problem, database: database)))
            }
            if found.count > DoctorExamination.maximumNamedRows {
                let more = found.count - DoctorExamination.maximumNamedRows
                check.add(DoctorFinding(en: "\(more) more rows like these", ko: "이런 행이 \(more)개 더 있습니다",
                                        fixEn: "fix the ones above, then run doctor again",
                                        fixKo: "위의 것을 고친 뒤 doctor를 다시 실행하세요"))
            }
            if check.status == .ok {
                check.summary = Localized(en: "every title, time and timer figure in range",
                                          ko: "모든 제목, 시각, 타이머 값이 범위 안에 있음")
            }
        } catch {
            check.add(DoctorFinding(
                problem: Localized(en: "the stored values could not be read: \(error)",
                                   ko: "저장된 값을 읽을 수 없습니다: \(error)"),
                fix: Localized(en: "see the integrity check above", ko: "위의 무결성 검사를 보세요")))
        }
        return check
    }

    /// Every row holding a value an import would refuse, and every id
    /// counter at its end. Call inside a read transaction.
    static func storedValueProblems(in connection: Connection) throws -> [StoredValueProblem] {
        try NotesArchive.storedValueProblems(in: connection) + TimerArchive.storedValueProblems(in: connection)
            + usedUpCounters(connection)
    }

    /// Whether the tables `storedValueProblems` reads are all there (a
    /// database of an older memoapp gets some of them from its migrations).
    static func hasValueTables(_ connection: Connection) throws -> Bool {
        let tables = Set(try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'") { $0.string(0) })
        return ["todos", "memos", "timers", "timer_spans", "timer_laps"].allSatisfy(tables.contains)
    }

    // MARK: - Private

    /// Tables whose AUTOINCREMENT counter is at 2^63 − 1: no row can be added.
    private static func usedUpCounters(_ connection: Connection) throws -> [StoredValueProblem] {
        try connection.query("SELECT name, seq FROM sqlite_sequence WHERE seq >= ? ORDER BY name", Int64.max) {
            StoredValueProblem(table: $0.string(0), id: $0.int64(1),
                               problems: ["the id counter is at its end: no row can be added"])
        }
    }

    private static func rowName(_ problem: StoredValueProblem) -> Localized {
        switch problem.table {
        case "todos": return Localized(en: "to-do \(problem.id)", ko: "할 일 \(problem.id)")
        case "memos": return Localized(en: "memo \(problem.id)", ko: "메모 \(problem.id)")
        case "timers": return Localized(en: "timer \(problem.id)", ko: "타이머 \(problem.id)")
        default: return Localized(en: "table \(problem.table)", ko: "테이블 \(problem.table)")
        }
    }

    private static func fix(for problem: StoredValueProblem, database: String) -> Localized {
        switch problem.table {
        case "todos":
            return Localized(en: "change it (memoapp todo edit \(problem.id)) or remove it (memoapp todo rm \(problem.id))",
                             ko: "고치거나(memoapp todo edit \(problem.id)) 지우세요(memoapp todo rm \(problem.id))")
        case "memos":
            return Localized(en: "change it (memoapp memo edit \(problem.id)) or remove it (memoapp memo rm \(problem.id))",
                             ko: "고치거나(memoapp memo edit \(problem.id)) 지우세요(memoapp memo rm \(problem.id))")
        case "timers":
            let delete = "sqlite3 \(database) 'DELETE FROM timers WHERE id = \(problem.id)'"
            return Localized(en: "restore a backup from before it was written, or remove it: \(delete)",
                             ko: "그 전에 만든 백업에서 복원하거나 지우세요: \(delete)")
        default:
            return Localized(en: "restore a backup, or export and import into a new data home",
                             ko: "백업에서 복원하거나, 내보낸 뒤 새 데이터 폴더로 가져오세요")
        }
    }
}
