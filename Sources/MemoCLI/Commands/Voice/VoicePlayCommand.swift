#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import MemoCore
import VoiceMemos

/// The signal that stopped playback (0: none). Set by the handler, read after the wait.
private nonisolated(unsafe) var stopSignal: Int32 = 0

/// `memoapp voice play ID [--from T]`: the memo through the first player
/// the machine has (`AudioPlayer.names`). Ctrl-C stops it: the player gets
/// the signal with memoapp, which then removes any copy it made and exits
/// 128 + the signal, as an interrupted `timer wait` does.
enum VoicePlayCommand {
    static let from = OptionKey<Double>("from", "T", help: Localized(en: "start at T (seconds or m:ss)", ko: "T부터 재생 (초 또는 m:ss)")) {
        text in
        guard let seconds = TimeOffset.seconds(from: text) else {
            throw MemoError(.usage, en: "invalid --from '\(text)': expected seconds or m:ss",
                            ko: "--from '\(text)'이 올바르지 않습니다: 초 또는 m:ss여야 합니다")
        }
        return seconds
    }

    static func make() -> Command {
        Command("play", abstract: Localized(en: "play a memo through pw-play, paplay, aplay or sox's play",
                                            ko: "pw-play, paplay, aplay 또는 sox의 play로 메모 재생"),
                options: [from],
                positionals: [VoiceCommand.id],
                discussion: Localized(
                    en: "The first of pw-play, paplay, aplay and play found on PATH plays the memo; Ctrl-C stops it. "
                        + "Where the player cannot start part-way (all but sox's play), or cannot read the stored "
                        + "format, it is given a WAV copy made in the voice folder and removed afterwards.",
                    ko: "PATH에서 pw-play, paplay, aplay, play 순서로 처음 찾은 것으로 재생하며, Ctrl-C로 멈춥니다. "
                        + "중간부터 시작할 수 없거나(sox의 play 말고는 모두) 저장 형식을 읽지 못하는 프로그램에는 "
                        + "음성 폴더에 만든 WAV 사본을 주고, 끝나면 지웁니다."),
                body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard let player = AudioPlayer.find(in: getenv("PATH").map { String(cString: $0) }) else {
            throw MemoError(.internalFailure,
                            en: "no audio player found on PATH: install one of pw-play (pipewire-bin), paplay "
                                + "(pulseaudio-utils), aplay (alsa-utils) or play (sox)",
                            ko: "PATH에서 오디오 재생 프로그램을 찾지 못했습니다: pw-play (pipewire-bin), paplay "
                                + "(pulseaudio-utils), aplay (alsa-utils), play (sox) 중 하나를 설치하세요")
        }
        let store = try VoiceCommand.store(context)
        let (memo, startFrame) = try store.playbackStart(id: arguments[VoiceCommand.id], seconds: arguments[from] ?? 0)
        let isDirect = player.reads(memo.container) && (startFrame == 0 || player.canSeek)
        let copy = isDirect ? nil : try CodecWarnings.silenced { _ in try store.playableCopy(of: memo, fromFrame: startFrame) }
        defer { copy?.discard() }
        var file = copy?.path ?? store.path(of: memo)
        // A relative data home could make the path look like an option.
        if !file.hasPrefix("/") { file = "./" + file }
        if !context.isJSON {
            try context.write(context.text(en: "Playing ", ko: "재생 중: ") + VoiceCommand.line(memo, context, idWidth: 0)
                              + TerminalText(" (\(player.name))\n"))
            try context.flush()
        }
        let status = try spawnAndWait([player.path] + player.arguments(file: file, startFrame: isDirect ? startFrame : 0))
        if stopSignal != 0 {
            context.exitStatus = 128 + stopSignal
            return try context.warn(context.text(en: "stopped playing voice memo \(memo.id)",
                                                 ko: "음성 메모 \(memo.id) 재생을 멈췄습니다"), as: .interrupted)
        }
        guard status == 0 else {
            throw MemoError(.internalFailure, en: "\(player.name) failed (exit status \(status)) playing voice memo \(memo.id)",
                            ko: "\(player.name)이(가) 음성 메모 \(memo.id) 재생에 실패했습니다 (종료 상태 \(status))")
        }
        if context.isJSON { try context.emit(json: VoiceCommand.json(memo, store: store), text: "") }
    }

    // MARK: - Private

    private static let stopSignals = [SIGINT, SIGTERM, SIGHUP]

    /// Runs the player and waits for it. Its standard output goes to
    /// memoapp's standard error (stdout holds only memoapp's own document);
    /// it gets the default action of every signal memoapp handles. A stop
    /// signal memoapp catches is passed on (Ctrl-C reaches both already, a
    /// SIGTERM sent to memoapp alone does not).
    private static func spawnAndWait(_ argv: [String]) throws -> Int32 {
        stopSignal = 0
        var previous: [Int32: sigaction] = [:]
        for signalNumber in stopSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { stopSignal = $0 }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            var old = sigaction()
            sigaction(signalNumber, &action, &old)
            previous[signalNumber] = old
        }
        defer { for (signalNumber, var old) in previous { sigaction(signalNumber, &old, nil) } }

        var hasPassedOn = false
        return try ChildProgram.run(argv, outputToError: true) { pid in
            if stopSignal != 0 && !hasPassedOn {
                kill(pid, SIGTERM)
                hasPassedOn = true
            }
        }
    }
}
