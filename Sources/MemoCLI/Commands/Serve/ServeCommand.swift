#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import HTTPServer
import MemoAPI
import MemoCore
import MemoKit
import MemoServer

/// `memoapp serve`: the HTTP API on this data home until Ctrl-C or SIGTERM.
/// Runs before the onboarding: the API has the onboarding's own routes.
enum ServeCommand {
    static func make() -> Command {
        Command(
            "serve",
            abstract: Localized(en: "serve the HTTP API (docs/api.md) on this data home",
                                ko: "이 데이터 폴더로 HTTP API(docs/api.md) 제공"),
            options: [listen, certificate, key, insecure],
            access: .alwaysRuns,
            discussion: Localized(
                en: "Prints its URL, then one line per request on stderr (JSON lines with --json). Ctrl-C or SIGTERM stops "
                    + "it gracefully. Port 0 lets the system choose. Any address but loopback needs --tls-cert and --tls-key, "
                    + "or --insecure. Clients send 'Authorization: Bearer TOKEN' (memoapp token create NAME).",
                ko: "URL을 출력한 뒤 요청마다 stderr에 한 줄씩 기록합니다 (--json이면 JSON 줄). Ctrl-C나 SIGTERM으로 깔끔하게 "
                    + "멈춥니다. 포트 0이면 시스템이 고릅니다. 루프백이 아닌 주소에는 --tls-cert와 --tls-key, 또는 --insecure가 "
                    + "필요합니다. 클라이언트는 'Authorization: Bearer TOKEN'을 보냅니다 (memoapp token create NAME)."),
            body: run)
    }

    static let listen = OptionKey<ListenAddress>(
        "listen", "HOST:PORT", help: Localized(en: "where to listen (default 127.0.0.1:8765)", ko: "수신 주소 (기본 127.0.0.1:8765)"),
        decode: { try ListenAddress(parsing: $0) })
    static let certificate = OptionKey<String>("tls-cert", "FILE", kind: .path,
                                               help: Localized(en: "serve HTTPS with this PEM certificate chain",
                                                               ko: "이 PEM 인증서 체인으로 HTTPS 제공"))
    static let key = OptionKey<String>("tls-key", "FILE", kind: .path,
                                       help: Localized(en: "the PEM private key of --tls-cert", ko: "--tls-cert의 PEM 개인 키"))
    static let insecure = Flag("insecure", help: Localized(en: "allow plain HTTP on an address other than loopback",
                                                           ko: "루프백이 아닌 주소에서도 평문 HTTP 허용"))

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        var configuration = ServerConfiguration()
        configuration.address = arguments[listen] ?? .loopback(port: 8765)
        configuration.connectionsPerAddress = 64
        configuration.tls = try tlsIdentity(arguments)
        if configuration.tls == nil && !MemoServer.isLoopback(configuration.address) && !arguments[insecure] {
            throw UsageError(Localized(en: "\(configuration.address) is not a loopback address: give --tls-cert and --tls-key, "
                                           + "or --insecure to send tokens in the clear",
                                       ko: "\(configuration.address)은(는) 루프백 주소가 아닙니다. --tls-cert와 --tls-key를 주거나, "
                                           + "토큰을 평문으로 보내려면 --insecure를 주세요"),
                             path: arguments.path)
        }
        configuration.requestLog = RequestLogLine.writer(isJSON: context.isJSON)

        // Blocked before the server's threads start (they inherit the mask),
        // so that only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }

        let server = try MemoServer(home: context.home, configuration: configuration, clock: context.clock)
        try server.start()
        let link = try server.makeSignInLink()
        try context.emit(json: .object([("url", .string(server.url)), ("sign_in_url", .string(link)),
                                        ("version", .string(Version.current))]),
                         text: context.text(en: "Listening on \(server.url)  (Ctrl-C stops)\nOpen in a browser (once, within 5 minutes): \(link)",
                                            ko: "\(server.url)에서 수신 중  (Ctrl-C로 멈춤)\n브라우저에서 여세요 (한 번, 5분 안에): \(link)"))
        try context.flush()

        var received: Int32 = 0
        sigwait(&signals, &received)
        let unfinished = server.stop(gracePeriod: 5)
        if unfinished > 0 {
            try context.warn(context.text(en: "stopped with \(unfinished) requests unfinished",
                                          ko: "끝나지 않은 요청 \(unfinished)개를 두고 멈췄습니다"))
        }
    }

    /// The certificate and key, read whole (PEM text, a few KiB).
    static func tlsIdentity(_ arguments: ParsedArguments) throws -> TLSIdentity? {
        switch (arguments[certificate], arguments[key]) {
        case (nil, nil):
            return nil
        case let (certificatePath?, keyPath?):
            let certificate = try InputFile.read(certificatePath).bytes
            let key = try InputFile.read(keyPath).bytes
            return TLSIdentity(certificatePEM: String(decoding: certificate, as: UTF8.self),
                               privateKeyPEM: String(decoding: key, as: UTF8.self))
        default:
            throw UsageError(Localized(en: "--tls-cert and --tls-key go together", ko: "--tls-cert와 --tls-key는 함께 줘야 합니다"),
                             path: arguments.path)
        }
    }
}
