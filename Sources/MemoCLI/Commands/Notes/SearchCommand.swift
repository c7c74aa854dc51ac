import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes
import VoiceMemos

/// `memoapp search QUERY` (to-dos, memos and voice memo titles) and
/// `memoapp memo search QUERY` (memos only).
enum SearchCommand {
    /// `kinds` is an array, not a Set: every start builds the whole command
    /// tree, and the first Set of `ItemKind` costs a runtime conformance lookup.
    static func make(kinds: [ItemKind]) -> Command {
        let isMemoOnly = kinds == [.memo]
        return Command(
            "search",
            abstract: isMemoOnly
                ? Localized(en: "search memos (Korean works inside words)", ko: "메모 검색 (단어 안의 한글도 찾음)")
                : Localized(en: "search to-dos, memos and voice memo titles", ko: "할 일, 메모, 음성메모 제목 검색"),
            options: [limit],
            positionals: [query],
            discussion: discussion,
            body: { context, arguments in try run(context, arguments, kinds: kinds) })
    }

    static let limit = OptionKey<Int>("limit", "N", range: 1...10_000,
                                      help: Localized(en: "at most N results (default \(NoteSearch.defaultLimit))",
                                                      ko: "결과 최대 N개 (기본 \(NoteSearch.defaultLimit))"))
    static let query = Arguments<String>("QUERY", help: Localized(en: "text to find (words are joined with spaces)",
                                                                  ko: "찾을 텍스트 (단어는 공백으로 이어 붙임)"))

    static let discussion = Localized(
        en: """
            The query is text, never syntax: quotes, *, -, AND, NEAR and parentheses are searched for as written.
            Case is ignored (for queries of one or two characters, in A-Z only).
            Titles, text, notes and tags are searched; best matches first.
            A query that starts with a dash goes after --: memoapp search -- "-1".
            Text output marks matches as [this]. JSON gives each hit's field, match_start and match_length
            (counted in Unicode code points of that field) and a snippet marked the same way.
            """,
        ko: """
            검색어는 문법이 아니라 텍스트입니다: 따옴표, *, -, AND, NEAR, 괄호도 그대로 찾습니다.
            대소문자를 가리지 않습니다(한두 글자 검색어는 A-Z만). 제목, 내용, 메모, 태그를 찾고 잘 맞는 것부터 보여 줍니다.
            -로 시작하는 검색어는 -- 뒤에 쓰세요: memoapp search -- "-1".
            텍스트 출력은 찾은 부분을 [이렇게] 표시합니다. JSON은 찾은 필드(field), match_start, match_length
            (그 필드의 유니코드 코드 포인트 단위)와 같은 방식으로 표시한 snippet을 줍니다.
            """)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments, kinds: [ItemKind]) throws {
        let query = try context.parsingArgument(arguments) {
            try SearchQuery(arguments[SearchCommand.query].joined(separator: " "))
        }
        let limit = arguments[SearchCommand.limit] ?? NoteSearch.defaultLimit
        let results = try Search.run(query, kinds: Set(kinds), limit: limit, in: context.workspace)
        try context.emit(json: .array(results.notes.hits.map(WireFormat.searchHit)
                                  + results.voice.map { WireFormat.searchHit(voice: $0.memo, title: $0.title) }),
                     text: text(results, context))
    }

    static func text(_ found: Search.Results, _ context: CommandContext) -> TerminalText {
        let results = found.notes
        guard !found.isEmpty else {
            return context.text(en: "Nothing found for '\(line: results.query.text)'.",
                                ko: "'\(line: results.query.text)'에 대한 결과가 없습니다.")
        }
        let style = context.style
        let width = String(results.hits.map(\.id).max() ?? 0).count
        var lines: [TerminalText] = []
        for hit in results.hits {
            var line = TerminalText(hit.kind == .todo ? context.text(en: "todo", ko: "할일")
                                                      : context.text(en: "memo", ko: "메모"))
            line += " #" + NotesText.paddedID(hit.id, width: width) + "  "
            if hit.isDone { line += context.text(en: "[done] ", ko: "[완료] ") }
            if hit.isPinned { line += "* " }
            let snippet = marked(hit.snippet, style)
            switch hit.match?.field {
            case .title?:
                line += snippet
            case .tags?:
                if let title = hit.title { line += style.bold(TerminalText(line: title)) + " — " }
                line += context.text(en: "tags: ", ko: "태그: ") + snippet
            default:
                if let title = hit.title { line += style.bold(TerminalText(line: title)) + " — " }
                line += snippet
            }
            lines.append(line)
        }
        for hit in found.voice {
            let (memo, title) = (hit.memo, hit.title)
            lines.append(context.text(en: "voice", ko: "음성") + " #\(memo.id)  " + marked(title, style))
        }
        if results.hasMore {
            lines.append(style.dim(context.text(en: "(more results: use --limit N)", ko: "(결과가 더 있습니다: --limit N)")))
        }
        return lines.joined(separator: "\n")
    }

    /// `text` on one line with each marked part as `[part]`, highlighted when
    /// colour is on; the brackets and colour are memoapp's, the rest is shown
    /// by the terminal text rule like any title.
    static func marked(_ text: MarkedText, _ style: TextStyle) -> TerminalText {
        let scalars = Array(text.text.unicodeScalars)
        var out = TerminalText()
        var offset = 0
        func part(_ range: Range<Int>) -> String {
            String(String.UnicodeScalarView(scalars[range]))
        }
        for mark in text.marks where mark.lowerBound >= offset && mark.upperBound <= scalars.count {
            out += TerminalText(line: part(offset..<mark.lowerBound))
            out += "[" + style.highlight(TerminalText(line: part(mark))) + "]"
            offset = mark.upperBound
        }
        out += TerminalText(line: part(offset..<scalars.count))
        return out
    }
}
