import MemoCore
import Notes
import VoiceMemos

extension WireFormat {
    /// One search hit of any kind: `kind` (`todo`, `memo`, `voice`), its id,
    /// uid and title, the field the match is in, where it starts and how long
    /// it is (in Unicode code points of that field), and a one-line snippet
    /// with the matches in [brackets].
    public static func searchHit(_ hit: SearchHit) -> JSON {
        var members: [(String, JSON)] = [
            ("kind", .string(hit.kind.rawValue)),
            ("id", .int(hit.id)),
            ("uid", .optional(hit.uid)),
            ("title", .optional(hit.title)),
            ("field", .optional(hit.match?.field.rawValue)),
            ("match_start", hit.match.map { .int($0.start) } ?? .null),
            ("match_length", hit.match.map { .int($0.length) } ?? .null),
            ("snippet", .string(hit.snippet.rendered(open: "[", close: "]"))),
            ("score", .double(hit.score)),
        ]
        switch hit.kind {
        case .todo: members.append(("is_done", .bool(hit.isDone)))
        case .memo: members.append(("is_pinned", .bool(hit.isPinned)))
        }
        members.append(("updated_at", .time(hit.updatedAt)))
        return .object(members)
    }

    /// A voice memo whose title matched.
    public static func searchHit(voice memo: VoiceMemo, title: MarkedText) -> JSON {
        let first = title.marks.first
        return .object([
            ("kind", .string("voice")),
            ("id", .int(memo.id)),
            ("uid", .string(memo.uid)),
            ("title", .string(memo.title)),
            ("field", .string("title")),
            ("match_start", first.map { .int($0.lowerBound) } ?? .null),
            ("match_length", first.map { .int($0.count) } ?? .null),
            ("snippet", .string(title.rendered(open: "[", close: "]"))),
            ("duration", .double(memo.duration)),
            ("updated_at", .time(memo.updatedAt ?? memo.importedAt)),
        ])
    }
}
