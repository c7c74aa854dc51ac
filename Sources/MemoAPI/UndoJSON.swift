import MemoCore
import MemoKit

extension WireFormat {
    /// One step of the undo history: what `undo` reverted, and each element
    /// of `undo --list`, newest first.
    public static func undoStep(_ step: UndoStep) -> JSON {
        .object([
            ("id", .int(step.id)),
            ("description", .string(step.description)),
            ("created_at", .time(step.createdAt)),
        ])
    }
}
