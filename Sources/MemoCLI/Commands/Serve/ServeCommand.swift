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
            options: [listen, certificate, key, insecure, maximumUpload, allowOrigin],
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

    static let allowOrigin = OptionKey<String>(
        "allow-origin", "ORIGIN", help: Localized(en: "let pages from this one origin (https://host[:port]) call the API with a token",
                                                  ko: "이 출처(https://host[:port])의 페이지가 토큰으로 API를 부르도록 허용"),
        decode: { try MemoServer.normalizedOrigin($0) })
    static let maximumUpload = OptionKey<UInt64>(
        "max-upload", "SIZE", help: Localized(en: "the largest audio upload, e.g. 500M or 2G (default 4G)",
                                              ko: "가장 큰 오디오 업로드, 예: 500M, 2G (기본 4G)"),
        decode: { try byteCount($0) })

    /// `123`, `500K`, `500M`, `2G` (powers of 1024), 1 byte to 1 TiB.
    static func byteCount(_ text: String) throws -> UInt64 {
        let units: [Character: UInt64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40]
        var digits = Substring(text)
        var unit: UInt64 = 1
        if let last = text.last?.uppercased().first, let multiple = units[last] {
            unit = multiple
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 13, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let number = UInt64(digits), number >= 1, number.multipliedReportingOverflow(by: unit).partialValue <= 1 << 40,
              !number.multipliedReportingOverflow(by: unit).overflow else {
            throw MemoError(.usage, en: "'\(text)' is not a size from 1 byte to 1T (e.g. 500M, 2G)",
                            ko: "'\(text)'은(는) 1바이트에서 1T 사이의 크기가 아닙니다 (예: 500M, 2G)")
        }
        return number * unit
    }

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
        configuration.requestLog = RequestLogLine.writerForStandardError(isJSON: context.isJSON)

        // Blocked before the server's threads start (they inherit the mask),
        // so that only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }

        let server = try MemoServer(home: context.home, configuration: configuration, clock: context.clock,
                                    maximumUpload: arguments[maximumUpload] ?? MemoServer.defaultMaximumUpload,
                                    allowedOrigin: arguments[allowOrigin])
        warnIfOthersCanWrite(context)
        try server.start()
        // For `memoapp token link`, which would otherwise guess the port.
        // Best effort: a home the database could be written in takes this too.
        let announcement = try? RunningServer(home: context.home, url: server.url)
        defer { announcement?.withdraw() }
        let signIn = try server.signInLink()
        try context.emit(json: .object([("url", .string(server.url)), ("version", .string(Version.current)),
                                        ("sign_in_url", .string(signIn))]),
                         text: context.text(en: "Listening on \(server.url)  (Ctrl-C stops)\nSign in from a browser (once, "
                                                + "within 5 minutes): \(signIn)",
                                            ko: "\(server.url)에서 수신 중  (Ctrl-C로 멈춤)\n브라우저 로그인 (한 번, 5분 안에): \(signIn)"))
        try context.flush()

        var received: Int32 = 0
        sigwait(&signals, &received)
        let unfinished = server.stop(gracePeriod: 5)
        if unfinished > 0 {
            try context.warn(context.text(en: "stopped with \(unfinished) requests unfinished",
                                          ko: "끝나지 않은 요청 \(unfinished)개를 두고 멈췄습니다"))
        }
    }

    /// Warns when users other than the owner may write the data home or
    /// its database: any of them could put a database with a token of
    /// their own in its place, and be let in by the server. A warning, not a
    /// refusal: a home on a FAT or SMB mount shows 0777 whatever chmod says,
    /// and every other command serves that home without a word; the owner
    /// is told what it means and how to close it.
    static func warnIfOthersCanWrite(_ context: CommandContext) {
        for path in [context.home.path, context.home.path + "/memoapp.db"] {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & (S_IWGRP | S_IWOTH) != 0 else { continue }
            let mode = String(info.st_mode & 0o777, radix: 8)
            try? context.warn(context.text(
                en: "\(path) can be written by other users (mode \(mode)): any of them could replace the data, and its "
                    + "tokens, that this server trusts; 'chmod go-w \(ShellText.quoted(path))' closes it",
                ko: "\(path)은(는) 다른 사용자도 쓸 수 있습니다 (모드 \(mode)): 누구든 이 서버가 믿는 데이터와 토큰을 바꿔 놓을 수 "
                    + "있습니다. 'chmod go-w \(ShellText.quoted(path))'로 막으세요"))
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
