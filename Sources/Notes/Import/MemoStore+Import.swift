import MemoCore
import SQLite

extension MemoStore {
    /// Stores memos read from files, in one transaction: all or none. One whose
    /// uid is already stored (or came earlier in `memos`) is counted as already
    /// present and not added again. With `dryRun`, only counts.
    public func importMemos(_ memos: [ImportedMemo], dryRun: Bool = false) throws -> ImportOutcome {
        for memo in memos { try MemoStore.check(memo) }
        return try importMemos(dryRun: dryRun) { add in try memos.forEach(add) }
    }

    /// The same for memos too many to hold: `produce` hands each to the
    /// function it is given, inside the one transaction, and must produce only
    /// memos that passed `check`.
    public func importMemos(dryRun: Bool = false,
                            _ produce: (_ add: (ImportedMemo) throws -> Void) throws -> Void) throws -> ImportOutcome {
        let now = clock.now()
        let body = { [self] () throws -> ImportOutcome in
            var outcome = ImportOutcome(addedIDs: [], addedCount: 0, alreadyPresent: 0)
            // Rows written earlier in this transaction are found by `hasMemo`;
            // a dry run writes none, so it remembers the uids it counted.
            var counted = Set<UIDKey>()
            try produce { memo in
                guard try !hasMemo(uid: memo.uid), !dryRun || counted.insert(UIDKey(memo.uid)).inserted else {
                    outcome.alreadyPresent += 1
                    return
                }
                outcome.addedCount += 1
                if !dryRun { outcome.addedIDs.append(try insert(memo, now: now)) }
            }
            return outcome
        }
        return try dryRun ? connection.readTransaction(body) : connection.writeTransaction(body)
    }

    /// Throws the error storing `memo` would meet: an empty text, a uid that
    /// is not a UUID.
    public static func check(_ memo: ImportedMemo) throws {
        try validate(text: memo.text, isNew: true)
        _ = try UUID4.uid(memo.uid)
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
