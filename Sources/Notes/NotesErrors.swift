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
    /// `no to-do with id 7`, `no memos with ids 7, 9`.
    static func notFound(_ kind: ItemKind, ids: [Int64]) -> MemoError {
        let list = ids.map(String.init).joined(separator: ", ")
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
