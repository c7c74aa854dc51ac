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

    /// The first `limit` to-dos and memos of `kinds` (every one when nil),
    /// and (unless only memos are asked for) up to `limit` voice memos, that
    /// `query` matches.
    public static func run(_ query: SearchQuery, kinds: Set<ItemKind> = [.todo, .memo],
                           limit: Int? = NoteSearch.defaultLimit, in workspace: Workspace) throws -> Results {
        let notes = try NoteSearch(connection: workspace.database()).search(query, in: kinds, limit: limit)
        let voice = kinds == [.memo] ? [] : try voiceMemos(matching: query, in: workspace.voiceStore())
            .prefix(limit ?? Int.max).map { VoiceHit(memo: $0, title: MarkedText.marking(query, in: $0.title)) }
        return Results(notes: notes, voice: Array(voice))
    }

    /// Voice memos whose titles `query` matches, newest first: the store finds
    /// titles holding one word, the query decides on the rest.
    static func voiceMemos(matching query: SearchQuery, in store: VoiceStore) throws -> [VoiceMemo] {
        var seen = Set<Int64>()
        var memos: [VoiceMemo] = []
        for term in query.combination == .all ? [query.terms[0]] : query.terms {
            for memo in try store.searchTitles(matching: term)
            where query.isMatched(by: [memo.title]) && seen.insert(memo.id).inserted {
                memos.append(memo)
            }
        }
        return memos.sorted { ($0.importedAt, $0.id) > ($1.importedAt, $1.id) }
    }
}
