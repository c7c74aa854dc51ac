import MemoCore
import SQLite

extension MemoStore {
    /// Stores memos read from files, in one transaction: all or none. One whose
    /// uid is already stored (or came earlier in `memos`) is counted as already
    /// present and not added again. With `dryRun`, only counts.
    public func importMemos(_ memos: [ImportedMemo], dryRun: Bool = false) throws -> ImportOutcome {
        for memo in memos {
            try MemoStore.validate(text: memo.text, isNew: true)
            _ = try UUID4.uid(memo.uid)
        }
        let now = clock.now()
        let body = { [self] () throws -> ImportOutcome in
            var outcome = ImportOutcome(addedIDs: [], addedCount: 0, alreadyPresent: 0)
            var seen = Set<String>()
            for memo in memos {
                guard seen.insert(memo.uid).inserted, try !hasMemo(uid: memo.uid) else {
                    outcome.alreadyPresent += 1
                    continue
                }
                outcome.addedCount += 1
                if !dryRun { outcome.addedIDs.append(try insert(memo, now: now)) }
            }
            return outcome
        }
        return try dryRun ? connection.readTransaction(body) : connection.writeTransaction(body)
    }

    // MARK: - Private

    private func hasMemo(uid: String) throws -> Bool {
        try connection.queryFirst("SELECT 1 FROM memos WHERE uid = ?", uid) { _ in true } ?? false
    }

    /// The whole row, written by the same insert as an export's memos.
    private func insert(_ memo: ImportedMemo, now: Timestamp) throws -> Int64 {
        let created = memo.createdAt ?? now
        let stored = Memo(id: 0, uid: memo.uid, title: MemoStore.storedTitle(memo.title), text: memo.text,
                          tags: try Tags.normalized(memo.tags), isPinned: memo.isPinned, createdAt: created,
                          updatedAt: memo.updatedAt ?? created)
        return try NotesArchive.insert(stored, keepingID: false, into: connection)
    }
}
