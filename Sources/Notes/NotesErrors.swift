import MemoCore
import SQLite

/// The two kinds of item this module stores, for messages and search hits.
public enum ItemKind: String, Sendable, CaseIterable {
    case todo
    case memo

    var table: String {
        switch self {
        case .todo: return "todos"
        case .memo: return "memos"
        }
    }
}

extension MemoError {
    /// `no to-do with id 7`, `no memos with ids 7, 9-12`: runs of
    /// consecutive ids read as ranges, so a range given whole (`1-5000`)
    /// makes a message of one line.
    static func notFound(_ kind: ItemKind, ids: [Int64]) -> MemoError {
        let list = idRuns(ids)
        let plural = ids.count > 1
        switch kind {
        case .todo:
            return MemoError(.notFound, en: plural ? "no to-dos with ids \(list)" : "no to-do with id \(list)",
                             ko: "id \(list)인 할 일이 없습니다")
        case .memo:
            return MemoError(.notFound, en: plural ? "no memos with ids \(list)" : "no memo with id \(list)",
                             ko: "id \(list)인 메모가 없습니다")
        }
    }
}

/// `3, 5-9, 12`: the ids in their order, each run of three or more consecutive ones as a range.
func idRuns(_ ids: [Int64]) -> String {
    var runs: [(first: Int64, last: Int64)] = []
    for id in ids {
        if let last = runs.last?.last, last < Int64.max, id == last + 1 {
            runs[runs.count - 1].last = id
        } else {
            runs.append((id, id))
        }
    }
    // Two in a row read better as two ids than as a range.
    return runs.map { run in
        run.last - run.first >= 2 ? "\(run.first)-\(run.last)"
            : (run.first...run.last).map(String.init).joined(separator: ", ")
    }.joined(separator: ", ")
}

extension MemoError {
    /// A uid that another to-do or memo already has.
    static func duplicateUID(_ kind: ItemKind, _ uid: String) -> MemoError {
        switch kind {
        case .todo:
            return MemoError(.duplicate, en: "a to-do with uid \(uid) already exists",
                             ko: "uid가 \(uid)인 할 일이 이미 있습니다")
        case .memo:
            return MemoError(.duplicate, en: "a memo with uid \(uid) already exists",
                             ko: "uid가 \(uid)인 메모가 이미 있습니다")
        }
    }
}

extension Connection {
    /// The ids without repeats, in the order given, after checking that every one
    /// names a row of `kind`'s table; otherwise a not-found error naming all the
    /// unknown ones. Call it inside the write transaction that uses the ids, so
    /// that nothing can remove them in between.
    func existingIDs(_ ids: [Int64], of kind: ItemKind) throws -> [Int64] {
        var unique: [Int64] = []
        var seen = Set<Int64>()
        for id in ids where seen.insert(id).inserted { unique.append(id) }
        let sql = "SELECT 1 FROM \(kind.table) WHERE id = ?"
        let missing = try unique.filter { try queryFirst(sql, $0) { _ in true } == nil }
        guard missing.isEmpty else { throw MemoError.notFound(kind, ids: missing) }
        return unique
    }
}

extension MemoError {
    /// SQLite gives AUTOINCREMENT ids up to 2^63 − 1 and then refuses every
    /// insert with SQLITE_FULL, which is not a full disk.
    static func idsUsedUp(_ kind: ItemKind) -> MemoError {
        switch kind {
        case .todo:
            return MemoError(.storage, en: "no more to-dos can be added: every to-do id up to \(Int64.max) has been "
                                 + "given out (the data home's counter is at its end); nothing was added",
                             ko: "할 일을 더 추가할 수 없습니다: \(Int64.max)까지 모든 할 일 id를 이미 썼습니다 "
                                 + "(데이터 폴더의 카운터가 끝에 닿음). 아무것도 추가하지 않았습니다")
        case .memo:
            return MemoError(.storage, en: "no more memos can be added: every memo id up to \(Int64.max) has been "
                                 + "given out (the data home's counter is at its end); nothing was added",
                             ko: "메모를 더 추가할 수 없습니다: \(Int64.max)까지 모든 메모 id를 이미 썼습니다 "
                                 + "(데이터 폴더의 카운터가 끝에 닿음). 아무것도 추가하지 않았습니다")
        }
    }
}

extension Connection {
    /// Runs `insert`, a new row of `kind`'s table; when SQLite refuses it as
    /// full because the table has given its last id, says so instead of
    /// letting it read as a full disk (https://www.sqlite.org/autoinc.html:
    /// "If the largest possible ROWID has previously been used … the INSERT
    /// fails with an SQLITE_FULL error code").
    func insertingRow<T>(of kind: ItemKind, _ insert: () throws -> T) throws -> T {
        do {
            return try insert()
        } catch let error as SQLiteError where error.codeName == "SQLITE_FULL" {
            if try hasGivenLastID(kind.table) { throw MemoError.idsUsedUp(kind) }
            throw error
        }
    }

    /// Whether `table`'s AUTOINCREMENT counter, or its largest id, is 2^63 − 1.
    func hasGivenLastID(_ table: String) throws -> Bool {
        let counter = try queryFirst("SELECT seq FROM sqlite_sequence WHERE name = ?", table) { $0.int64(0) } ?? 0
        let largest = try queryFirst("SELECT max(id) FROM \(table)") { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
        return counter == Int64.max || largest == Int64.max
    }
}
