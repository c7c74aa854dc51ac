import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `memoapp token …`: API tokens for programs that use `memoapp serve`.
/// Runs before the onboarding (a client may do the onboarding itself).
enum TokenCommand {
    static func make() -> Command {
        Command(
            "token",
            abstract: Localized(en: "API tokens, device codes and web sessions for the HTTP server: create, list, revoke, end",
                                ko: "HTTP 서버용 API 토큰, 기기 코드, 웹 세션: 만들기, 목록, 폐기, 끝내기"),
            subcommands: [
                Command("create", abstract: Localized(en: "make a token; it is shown once, only now",
                                                      ko: "토큰 만들기; 지금 한 번만 보여 줍니다"),
                        options: [expires], positionals: [name], body: create),
                Command("code", abstract: Localized(
                    en: "a short code a phone app exchanges once for a token named NAME (single use, 10 minutes)",
                    ko: "휴대폰 앱이 NAME 이름의 토큰과 한 번 바꾸는 짧은 코드 (한 번만, 10분)"),
                        options: [expires], positionals: [name], body: code),
                Command("list", abstract: Localized(en: "token names, when made, last used and expiring (never the tokens)",
                                                    ko: "토큰 이름, 만든 때, 마지막 사용, 만료 (토큰 자체는 보이지 않음)"),
                        body: list),
                Command("revoke", abstract: Localized(en: "remove a token; a running server refuses it at once",
                                                      ko: "토큰 폐기; 실행 중인 서버도 바로 거부합니다"),
                        positionals: [name], body: revoke),
                Command("link", abstract: Localized(en: "a new sign-in link for the web app (single use, 5 minutes)",
                                                    ko: "웹 앱용 새 로그인 링크 (한 번만, 5분)"),
                        options: [url], body: link),
            ] + sessionCommands(),
            access: .alwaysRuns)
    }

    static let name = Argument<String>("NAME", help: Localized(en: "the token's name (letters, digits, - _ .)",
                                                               ko: "토큰 이름 (영문자, 숫자, - _ .)"))

    static let url = OptionKey<String>("url", "URL", help: Localized(
        en: "the server's URL (default: the serve running on this home, else http://127.0.0.1:8765)",
        ko: "서버 URL (기본: 이 폴더에서 실행 중인 serve, 없으면 http://127.0.0.1:8765)"))

    static func link(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let code = try WebSessions(connection: context.workspace.database()).createCode(at: context.clock.now()).code
        // The running server wrote where it listens (RunningServer); a
        // guessed port would be a link to nothing.
        var base = arguments[url] ?? RunningServer.url(in: context.home) ?? {
            try? context.warn(context.text(
                en: "no memoapp serve is running on this data home; the link assumes http://127.0.0.1:8765 (give --url)",
                ko: "이 데이터 폴더에서 실행 중인 memoapp serve가 없습니다. 링크는 http://127.0.0.1:8765로 가정합니다 (--url로 지정)"))
            return "http://127.0.0.1:8765"
        }()
        while base.hasSuffix("/") { base.removeLast() }
        let link = base + "/#code=" + code
        try context.emit(json: .object([("url", .string(link))]),
                         text: context.text(en: "Open this within 5 minutes to sign in (it works once):\n\(link)",
                                            ko: "5분 안에 열어 로그인하세요 (한 번만 쓸 수 있습니다):\n\(link)"))
    }

    static func create(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let (token, secret) = try context.parsingArgument(arguments) {
            let lifetime = try arguments[expires].map(TokenLifetime.seconds(in:))
            return try AccessTokens(connection: context.workspace.database())
                .create(name: arguments[name], lifetime: lifetime, at: context.clock.now())
        }
        let expiry = token.expiresAt.map { context.text(en: "; it expires \($0.rfc3339)", ko: "; \($0.rfc3339)에 만료됩니다") } ?? ""
        try context.emit(
            json: WireFormat.createdToken(token, secret: secret),
            text: context.text(
                en: "Token '\(token.name)' (shown only now; send it as 'Authorization: Bearer TOKEN'\(expiry)):\n\(secret)",
                ko: "토큰 '\(token.name)' (지금만 보입니다. 'Authorization: Bearer TOKEN'으로 보내세요\(expiry)):\n\(secret)"))
    }

    static func list(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let tokens = try AccessTokens(connection: context.workspace.database()).list()
        let never = context.text(en: "never", ko: "없음")
        let now = context.clock.now()
        let dates = RelativeDate(now: now, calendar: context.calendar, language: context.language)
        let rows = tokens.map { token -> [TerminalText] in
            let expiry = token.hasExpired(at: now) ? context.text(en: "expired", ko: "만료됨")
                : token.expiresAt.map(dates.past) ?? never
            return [TerminalText(dates.past(token.createdAt)), TerminalText(token.lastUsedAt.map(dates.past) ?? never),
                    TerminalText(expiry), TerminalText(line: token.name)]
        }
        func widest(_ column: Int) -> Int { rows.map { $0[column].displayWidth }.max() ?? 0 }
        let table = TextTable([
            .init(context.text(en: "CREATED", ko: "만든 때"), width: widest(0)),
            .init(context.text(en: "LAST USED", ko: "마지막 사용"), width: widest(1)),
            .init(context.text(en: "EXPIRES", ko: "만료"), width: widest(2)),
            .init(context.text(en: "NAME", ko: "이름"), width: 8),
        ], totalWidth: context.tableWidth, style: context.style)
        let text = tokens.isEmpty
            ? TerminalText(context.text(en: "No tokens. Make one with 'memoapp token create NAME'.",
                                        ko: "토큰이 없습니다. 'memoapp token create NAME'으로 만드세요."))
            : ([table.header] + rows.map(table.row)).joined(separator: "\n")
        try context.emit(json: .array(tokens.map(WireFormat.accessToken)), text: text)
    }

    static func revoke(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let token = try context.parsingArgument(arguments) {
            try AccessTokens(connection: context.workspace.database()).revoke(name: arguments[name])
        }
        try context.emit(json: WireFormat.accessToken(token), text: context.text(en: "Revoked token '\(token.name)'.",
                                                               ko: "토큰 '\(token.name)'을(를) 폐기했습니다."))
    }
}
