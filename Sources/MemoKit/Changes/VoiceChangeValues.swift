import MemoCore
import VoiceMemos

// The changes a person makes to voice memos (see `ItemChange`). Adding one
// is not among them: its audio streams in before any transaction (an
// import or an upload), and the row follows in one step of its own.

/// Renames a voice memo and changes its tags.
public struct EditVoiceMemo: ItemChange {
    public var id: Int64
    public var title: String?
    public var tags: TagChanges
    public init(id: Int64, title: String? = nil, tags: TagChanges = TagChanges()) {
        self.id = id
        self.title = title
        self.tags = tags
    }
    public var summary: String { "voice edit \(id)" + (title.map { " " + quotedTitle($0) } ?? "") }
    public func write(in workspace: Workspace) throws -> VoiceMemo {
        try workspace.voiceStore().edit(id: id, title: title, tags: tags)
    }
}

/// Cuts a voice memo to `start`…`end` seconds; the audio it replaces is kept
/// for the undo, until the step leaves the history.
public struct TrimVoiceMemo {
    public var id: Int64
    public var start: Double
    public var end: Double
    public init(id: Int64, start: Double, end: Double) {
        self.id = id
        self.start = start
        self.end = end
    }
    public var summary: String { "voice trim \(id)" }
}

/// Removes voice memos; their audio is kept for the undo, until the step
/// leaves the history (or `undo --forget`).
public struct RemoveVoiceMemos {
    public var ids: [Int64]
    public init(ids: [Int64]) { self.ids = ids }
    public var summary: String { "voice rm " + idWords(ids) }
}

extension Workspace {
    /// Applies a trim: its audio is kept aside in the step's transaction, so
    /// it goes through the history's own door for audio.
    public func apply(_ change: TrimVoiceMemo, origin: ChangeOrigin, describedAs description: String? = nil,
                      progress: ((Int64, Int64) -> Void)? = nil) throws -> VoiceMemo {
        try applyNamingStep(change, origin: origin, describedAs: description, progress: progress).outcome
    }

    /// `apply` of a trim, with the undo step it recorded.
    public func applyNamingStep(_ change: TrimVoiceMemo, origin: ChangeOrigin, describedAs description: String? = nil,
                                progress: ((Int64, Int64) -> Void)? = nil) throws -> (outcome: VoiceMemo, step: Int64?) {
        let history = try undoHistory()
        let memo = try history.trimVoiceMemo(id: change.id, start: change.start, end: change.end, in: voiceStore(),
                                             description: description ?? change.summary, origin: origin, progress: progress)
        return (memo, history.lastRecordedStep)
    }

    /// Applies a removal, keeping the audio for the undo.
    @discardableResult
    public func apply(_ change: RemoveVoiceMemos, origin: ChangeOrigin,
                      describedAs description: String? = nil) throws -> [VoiceMemo] {
        try applyNamingStep(change, origin: origin, describedAs: description).outcome
    }

    /// `apply` of a removal, with the undo step it recorded.
    public func applyNamingStep(_ change: RemoveVoiceMemos, origin: ChangeOrigin,
                                describedAs description: String? = nil) throws -> (outcome: [VoiceMemo], step: Int64?) {
        let history = try undoHistory()
        let removed = try history.removeVoiceMemos(ids: change.ids, in: voiceStore(),
                                                   description: description ?? change.summary, origin: origin)
        return (removed, history.lastRecordedStep)
    }
}
