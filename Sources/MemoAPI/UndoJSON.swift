import MemoCore
import MemoKit

extension WireFormat {
    /// One step of the undo history: what `undo` reverted, and each element
    /// of `undo --list`, newest first; `origin` is the front end that made
    /// it (`cli`, `api`, `web`).
    public static func undoStep(_ step: UndoStep) -> JSON {
        .object([
            ("id", .int(step.id)),
            ("description", .string(step.description)),
            ("origin", .string(step.origin.rawValue)),
            ("created_at", .time(step.createdAt)),
        ])
    }
}
