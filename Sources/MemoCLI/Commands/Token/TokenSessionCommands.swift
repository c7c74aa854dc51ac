import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp token sessions` and `token end-session ID|--all`: the web app's
/// sign-ins, which nothing listed or ended but signing out in the browser
/// (a forgotten or stolen session was good until it expired). Ending one
/// takes effect at once, also for a running server and its open event
/// streams (it reads the same table).
extension TokenCommand {
    static func sessionCommands() -> [Command] {
        [
            Command("sessions", abstract: Localized(en: "the web app's signed-in sessions: id, when made, when they expire",
                                                    ko: "웹 앱의 로그인 세션: ID, 만든 때, 만료 시각"),
                    body: sessions),
            Command("end-session", abstract: Localized(en: "end a web session (or every one with --all); its page must sign in again",
                                                       ko: "웹 세션 끝내기 (--all이면 모두); 그 페이지는 다시 로그인해야 합니다"),
                    options: [allSessions], positionals: [sessionID], body: endSession),
        ]
    }

    static let sessionID = OptionalArgument<String>("ID", help: Localized(en: "a session's id, as 'token sessions' shows it",
                                                                          ko: "'token sessions'에 나오는 세션 ID"))
    static let allSessions = Flag("all", help: Localized(en: "every session", ko: "세션 모두"))

    static func sessions(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let now = context.clock.now()
        let sessions = try WebSessions(connection: context.workspace.database()).list(at: now)
        let dates = RelativeDate(now: now, calendar: context.calendar, language: context.language)
        let rows = sessions.map { session -> [TerminalText] in
            [TerminalText(line: session.id), TerminalText(dates.past(session.createdAt)),
             TerminalText(dates.past(session.expiresAt))]
        }
        func widest(_ column: Int) -> Int { rows.map { $0[column].displayWidth }.max() ?? 0 }
        let table = TextTable([
            .init("ID", width: 12),
            .init(context.text(en: "SIGNED IN", ko: "로그인"), width: widest(1)),
            .init(context.text(en: "EXPIRES", ko: "만료"), width: 8),
        ], totalWidth: context.tableWidth, style: context.style)
        let text = sessions.isEmpty
            ? TerminalText(context.text(en: "No web sessions. Sign in with a link from 'memoapp token link'.",
                                        ko: "웹 세션이 없습니다. 'memoapp token link'의 링크로 로그인하세요."))
            : ([table.header] + rows.map(table.row)).joined(separator: "\n")
        try context.emit(json: .array(sessions.map(WireFormat.webSession)), text: text)
    }

    static func endSession(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try WebSessions(connection: context.workspace.database())
        let count: Int
        switch (arguments[sessionID], arguments[allSessions]) {
        case let (id?, false):
            _ = try context.parsingArgument(arguments) { try store.end(id: id) }
            count = 1
        case (nil, true):
            count = try store.endAll(at: context.clock.now())
        default:
            throw UsageError(Localized(en: "give a session's ID or --all", ko: "세션 ID나 --all을 주세요"), path: arguments.path)
        }
        try context.emit(json: .object([("ended", .int(Int64(count)))]),
                         text: context.text(en: count == 1 ? "Ended 1 web session." : "Ended \(count) web sessions.",
                                            ko: "웹 세션 \(count)개를 끝냈습니다."))
    }
}
