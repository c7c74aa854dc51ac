import MemoCore
import SQLite

/// An item's two names: the short id people type, which is this data
/// home's own, and the uid, made once on the device that made the item and
/// the same on every device (kept by export, import, backup, restore and
/// undo). A front end that takes either resolves it here.
public enum ItemIdentity {
    /// The table holding items of `kind` (the one list of them, `Revisions.itemTables`).
    static func table(of kind: ChangeLog.Kind) -> String {
        Revisions.itemTables.first { $0.kind == kind }!.table
    }

    /// The id of the item of `kind` whose uid is `uid` (any case), or nil
    /// when there is none or `uid` is not a UUID.
    public static func id(of kind: ChangeLog.Kind, uid: String, in workspace: Workspace) throws -> Int64? {
        let lowered = uid.lowercased()
        guard UUID4.isWellFormed(lowered) else { return nil }
        return try workspace.database().queryFirst("SELECT id FROM \(table(of: kind)) WHERE uid = ?", lowered) {
            $0.int64(0)
        }
    }
}
