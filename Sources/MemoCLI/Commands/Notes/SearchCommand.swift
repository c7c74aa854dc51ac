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
                : Localized(en: "search to-dos, memos and voice memo titles", ko: "할 일, 메모, 음성 메모 제목 검색"),
            options: [limit, all, any],
            positionals: [query],
            exclusiveOptions: [[limit, all]],
            discussion: discussion,
            body: { context, arguments in try run(context, arguments, kinds: kinds) })
    }

    static let limit = OptionKey<Int>("limit", "N", range: 1...10_000,
                                      help: Localized(en: "at most N results (default \(NoteSearch.defaultLimit))",
                                                      ko: "결과 최대 N개 (기본 \(NoteSearch.defaultLimit))"))
    static let query = Arguments<String>("QUERY", help: Localized(en: "words to find, all of them (\"a phrase\" in quotes)",
                                                                  ko: "찾을 단어, 모두 있어야 함 (구절은 \"따옴표\" 안에)"))
    static let all = Flag("all", help: Localized(en: "every result", ko: "결과 모두"))
    static let any = Flag("any", help: Localized(en: "items holding any of the words, not all of them",
                                                 ko: "모든 단어가 아니라 단어 하나라도 있는 항목"))

    static let discussion = Localized(
        en: """
            Each word is found inside longer words too (민국 finds 대한민국, rep finds REPORT), case ignored,
            in titles, text, notes and tags; an item must hold every word, in any order (--any: one is enough).
            "Double quotes" make a phrase, found only as written: memoapp search '"weekly report"'.
            To find a quote or a backslash itself, put a backslash before it: memoapp search '\\"'.
            A quote without a partner is found as written too; *, -, AND, OR, NEAR and parentheses always are.
            Among the \(NoteSearch.rankedWindow) newest hits, title matches come first, then tag matches, then the rest, newest first
            within each; older hits follow, newest first.
            A query that starts with a dash goes after --: memoapp search -- "-1".
            Text output marks matches as [this]. JSON gives each hit's field, match_start and match_length
            (counted in Unicode code points of that field) and a snippet marked the same way.
            """,
        ko: """
            단어 안에 든 것도 찾습니다(민국으로 대한민국, rep로 REPORT). 대소문자를 가리지 않고 제목, 내용, 메모,
            태그를 찾으며, 모든 단어가 순서에 상관없이 있어야 합니다(--any: 하나만 있어도 됨).
            "큰따옴표"로 묶은 구절은 쓴 그대로만 찾습니다: memoapp search '"주간 회의"'.
            따옴표나 백슬래시 자체를 찾으려면 앞에 백슬래시를 붙이세요: memoapp search '\\"'.
            짝이 없는 따옴표도 그대로 찾으며, *, -, AND, OR, NEAR, 괄호는 언제나 그대로 찾습니다.
            최신 결과 \(NoteSearch.rankedWindow)개 안에서는 제목에서 찾은 것, 태그에서 찾은 것, 나머지 순서로 각각 최신 항목부터,
            그보다 오래된 결과는 그 뒤에 최신 항목부터 보여 줍니다.
            -로 시작하는 검색어는 -- 뒤에 쓰세요: memoapp search -- "-1".
            텍스트 출력은 찾은 부분을 [이렇게] 표시합니다. JSON은 찾은 필드(field), match_start, match_length
            (그 필드의 유니코드 코드 포인트 단위)와 같은 방식으로 표시한 snippet을 줍니다.
            """)

    static func run(_ context: CommandContext, _ arguments: ParsedArguments, kinds: [ItemKind]) throws {
        let query = try context.parsingArgument(arguments) {
            try SearchQuery(arguments[SearchCommand.query].joined(separator: " "),
                            combination: arguments[SearchCommand.any] ? .any : .all)
        }
        let limit = arguments[SearchCommand.all] ? nil : arguments[SearchCommand.limit] ?? NoteSearch.defaultLimit
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
        var rows: [[TerminalText]] = []
        for hit in results.hits {
            let kind = hit.kind == .todo ? context.text(en: "todo", ko: "할 일") : context.text(en: "memo", ko: "메모")
            let mark: TerminalText = hit.isDone ? style.green("✓") : hit.isPinned ? style.yellow("*") : ""
            var line = TerminalText()
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
            rows.append([TerminalText(kind), TerminalText(String(hit.id)), mark, line])
        }
        for hit in found.voice {
            rows.append([TerminalText(context.text(en: "voice", ko: "음성 메모")), TerminalText(String(hit.memo.id)), "",
                         marked(hit.title, style)])
        }
        // The rows are all read: each column is as wide as its widest value.
        func widest(_ column: Int) -> Int { rows.map { $0[column].displayWidth }.max() ?? 0 }
        let table = TextTable([
            .init(context.text(en: "KIND", ko: "종류"), width: widest(0)),
            .init("ID", width: widest(1), alignment: .right),
            // ✓ done, * pinned
            .init("", width: widest(2)),
            .init(context.text(en: "MATCH", ko: "찾은 내용"), width: 8),
        ], totalWidth: context.tableWidth, style: style)
        var lines = [table.header] + rows.map(table.row)
        if results.hasMore {
            lines.append(style.dim(context.text(en: "(more results: use --limit N or --all)",
                                                ko: "(결과가 더 있습니다: --limit N 또는 --all)")))
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
