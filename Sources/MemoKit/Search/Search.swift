import MemoCore
import Notes
import VoiceMemos

/// One search across the features: to-dos and memos through their full-text
/// index, voice memos by title.
public enum Search {
    /// A voice memo whose title matched, with the matches marked.
    public struct VoiceHit: Sendable {
        public let memo: VoiceMemo
        public let title: MarkedText
    }

    /// What a search found.
    public struct Results: Sendable {
        public let notes: SearchResults
        /// Voice memo hits follow the to-dos and memos, newest first: scores
        /// of two different indexes do not compare.
        public let voice: [VoiceHit]

        public var isEmpty: Bool { notes.hits.isEmpty && voice.isEmpty }
    }

    /// The best `limit` to-dos and memos of `kinds`, and (unless only memos
    /// are asked for) up to `limit` voice memos, whose text holds `query`.
    public static func run(_ query: SearchQuery, kinds: Set<ItemKind> = [.todo, .memo],
                           limit: Int = NoteSearch.defaultLimit, in workspace: Workspace) throws -> Results {
        let notes = try NoteSearch(connection: workspace.database()).search(query, in: kinds, limit: limit)
        let voice = kinds == [.memo] ? [] : try workspace.voiceStore().searchTitles(matching: query.text)
            .prefix(limit).map { VoiceHit(memo: $0, title: MarkedText.marking(query.text, in: $0.title)) }
        return Results(notes: notes, voice: Array(voice))
    }
}
