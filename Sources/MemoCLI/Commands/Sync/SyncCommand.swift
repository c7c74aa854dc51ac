import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit

/// `memoapp sync`: this data home as a device of a hub (`memoapp serve`
/// elsewhere): send what changed here, take what changed there, by the
/// rules of docs/sync.md (MemoKit's `SyncRun`).
enum SyncCommand {
    static func make() -> Command {
        Command(
            "sync",
            abstract: Localized(en: "sync to-dos, memos, timers and voice memos with a server (memoapp serve elsewhere)",
                                ko: "할 일, 메모, 타이머, 음성 메모를 서버(다른 곳의 memoapp serve)와 동기화"),
            options: [server, token, authorities, status, force, watch],
            exclusiveOptions: [[status, watch], [status, force]],
            discussion: Localized(
                en: "The first time, name the server and a token made there with 'memoapp token create NAME'; "
                    + "they are saved in the data home, so later a plain 'memoapp sync' does. Changes made here "
                    + "are sent, then the server's are taken; edits of different fields both stay, a field changed "
                    + "on both keeps the later, tags merge, and a memo whose same lines changed on both keeps the "
                    + "server's text beside a copy tagged 'conflict'. Nothing is lost if a sync is cut off: run it again. "
                    + "A sync that would remove more than half of the items (\(SyncRun.massRemovalFloor) or more) needs --force.",
                ko: "처음에는 서버와 그 서버에서 'memoapp token create NAME'으로 만든 토큰을 주세요. 데이터 홈에 저장되므로 "
                    + "그 뒤로는 'memoapp sync'만 하면 됩니다. 여기서 바뀐 것을 보내고 서버에서 바뀐 것을 받습니다. 서로 다른 "
                    + "필드의 수정은 둘 다 남고, 양쪽에서 바뀐 필드는 나중 것이, 태그는 합쳐지며, 같은 줄이 양쪽에서 바뀐 메모는 "
                    + "서버의 내용을 두고 기기의 내용을 'conflict' 태그가 붙은 사본으로 남깁니다. 동기화가 끊겨도 잃는 것은 "
                    + "없습니다: 다시 실행하세요. 항목의 절반 넘게(\(SyncRun.massRemovalFloor)개 이상) 지우게 될 동기화에는 "
                    + "--force가 필요합니다."),
            body: run)
    }

    static let server = OptionKey<String>(
        "server", "URL", help: Localized(en: "the server: http(s)://host:port (saved for later syncs)",
                                         ko: "서버: http(s)://host:port (다음 동기화를 위해 저장)"),
        decode: { try serverURL($0) })
    static let token = OptionKey<String>(
        "token", "TOKEN", help: Localized(en: "a token made on the server (saved with --server)",
                                          ko: "서버에서 만든 토큰 (--server와 함께 저장)"),
        decode: { try tokenText($0) })
    static let authorities = OptionKey<String>(
        "cacert", "FILE", kind: .path, help: Localized(en: "trust the server's certificate from this PEM file",
                                                       ko: "이 PEM 파일의 인증서로 서버를 신뢰"))
    static let status = Flag("status", help: Localized(en: "show the server, the last sync, changes waiting and conflicts",
                                                       ko: "서버, 마지막 동기화, 보낼 변경, 충돌 보기"))
    static let force = Flag("force", help: Localized(en: "sync even when it would remove more than half of the items",
                                                     ko: "항목의 절반 넘게 지우게 되어도 동기화"))
    static let watch = Flag("watch", help: Localized(en: "stay connected: sync on every change, on either side (Ctrl-C stops)",
                                                     ko: "연결 유지: 어느 쪽이든 바뀔 때마다 동기화 (Ctrl-C로 멈춤)"))

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let workspace = context.workspace
        if arguments[status] { return try showStatus(context) }
        let given = (arguments[server], arguments[token])
        switch given {
        case let (server?, token?):
            try SyncRun.configure(workspace, server: server, token: token)
        case (nil, nil):
            break
        default:
            throw MemoError(.usage, en: "--server and --token go together", ko: "--server와 --token은 함께 주어야 합니다")
        }
        guard let saved = try SyncRun.status(workspace) else {
            throw MemoError(.usage, hint: .syncNeedsServer, en: "no server to sync with is saved in this data home",
                            ko: "이 데이터 홈에는 동기화할 서버가 저장되어 있지 않습니다")
        }
        let transport = HTTPSyncTransport(server: saved.server, token: try SyncRun.token(workspace),
                                          certificateAuthorities: arguments[authorities])
        if arguments[watch] {
            try SyncWatch(context: context, transport: transport, force: arguments[force]).run()
        }
        // A bar on a terminal once a sync takes a second (a new device's first).
        let bar = ProgressBar(context: context, label: context.text(en: "syncing", ko: "동기화 중"))
        let report = try bar.showing {
            try SyncRun(workspace, transport: transport).run(force: arguments[force]) { done, total in
                bar.update(done, of: total)
            }
        }
        try context.emit(json: json(report, server: saved.server, traffic: transport.traffic),
                         text: text(report, server: saved.server, context))
    }

    static func json(_ report: SyncRun.Report, server: String, traffic: HTTPSyncTransport.Traffic) -> JSON {
        .object([("server", .string(server)), ("pushed", .int(report.pushed)), ("pulled", .int(report.pulled)),
                 ("written", .int(report.written)), ("kept", .strings(report.kept)), ("conflicts", .strings(report.conflicts)),
                 ("fresh_copy", .bool(report.tookFreshCopy)), ("audio_sent", .int(report.audioSent)),
                 ("audio_received", .int(report.audioReceived)),
                 ("bytes_sent", .int(traffic.sent)), ("bytes_received", .int(traffic.received))])
    }

    static func text(_ report: SyncRun.Report, server: String, _ context: CommandContext) -> TerminalText {
        var lines = [TerminalText(context.text(en: "Synced with ", ko: "동기화: ")) + TerminalText(line: server)
            + TerminalText(context.text(en: ": sent \(report.pushed), received \(report.pulled) (\(report.written) changed here).",
                                        ko: " — 보냄 \(report.pushed), 받음 \(report.pulled) (여기서 바뀐 것 \(report.written)).")),
        ]
        if report.audioSent > 0 || report.audioReceived > 0 {
            let sent = ByteSize.text(report.audioSent), received = ByteSize.text(report.audioReceived)
            lines.append(TerminalText(context.text(en: "Audio: \(sent) sent, \(received) received.",
                                                   ko: "오디오: \(sent) 보냄, \(received) 받음.")))
        }
        if !report.kept.isEmpty {
            lines.append(TerminalText(context.text(
                en: "\(report.kept.count) removed here were edited elsewhere meanwhile: kept.",
                ko: "여기서 지운 \(report.kept.count)개는 그사이 다른 곳에서 고쳐져 남았습니다.")))
        }
        if !report.conflicts.isEmpty {
            lines.append(TerminalText(context.text(
                en: "\(report.conflicts.count) memo(s) changed on both sides: copies tagged 'conflict' hold this side's text "
                    + "(memoapp memo list --tag conflict).",
                ko: "양쪽에서 바뀐 메모 \(report.conflicts.count)개: 이쪽 내용은 'conflict' 태그가 붙은 사본에 있습니다 "
                    + "(memoapp memo list --tag conflict).")))
        }
        return lines.joined(separator: "\n")
    }

    static func showStatus(_ context: CommandContext) throws {
        guard let status = try SyncRun.status(context.workspace) else {
            return try context.emit(json: .object([("server", .null)]),
                                    text: context.text(en: "Not syncing: no server saved (memoapp sync --server URL --token TOKEN).",
                                                       ko: "동기화하지 않습니다: 저장된 서버가 없습니다 (memoapp sync --server URL --token TOKEN)."))
        }
        let dates = RelativeDate(now: context.clock.now(), calendar: context.calendar, language: context.language)
        var lines = [TerminalText(context.text(en: "Server: ", ko: "서버: ")) + TerminalText(line: status.server),
                     TerminalText(context.text(en: "Last sync: ", ko: "마지막 동기화: ")
                                  + (status.lastSync.map { dates.past($0) } ?? context.text(en: "never", ko: "없음"))),
                     TerminalText(context.text(en: "Changes waiting: \(status.waiting)", ko: "보낼 변경: \(status.waiting)")),
                     TerminalText(context.text(en: "Conflict copies: \(status.conflicts)", ko: "충돌 사본: \(status.conflicts)"))]
        if let error = status.lastError {
            lines.append(TerminalText(context.text(en: "Last error: ", ko: "마지막 오류: ")) + TerminalText(line: error))
        }
        try context.emit(json: .object([
            ("server", .string(status.server)), ("last_sync", .optional(status.lastSync)), ("waiting", .int(status.waiting)),
            ("conflicts", .int(status.conflicts)), ("last_error", .optional(status.lastError)), ("epoch", .optional(status.epoch)),
        ]), text: lines.joined(separator: "\n"))
    }

    /// `http://` or `https://`, a host, at most 2,048 visible characters.
    static func serverURL(_ text: String) throws -> String {
        let lower = text.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), text.utf8.count <= 2048,
              text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }), !text.contains("?"), !text.contains("#"),
              text.split(separator: "/", omittingEmptySubsequences: true).count >= 2 else {
            throw MemoError(.usage, en: "a server is http://host:port or https://host:port",
                            ko: "서버는 http://host:port 또는 https://host:port 형식입니다")
        }
        return text
    }

    /// A token as `memoapp token create` prints it: visible ASCII, at most 256.
    static func tokenText(_ text: String) throws -> String {
        guard (1...256).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw MemoError(.usage, en: "a token is the text 'memoapp token create' printed",
                            ko: "토큰은 'memoapp token create'가 출력한 문자열입니다")
        }
        return text
    }
}
