#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import MemoCore
import VoiceMemos

/// Set by SIGINT or SIGTERM while recording; the recorder polls it.
private nonisolated(unsafe) var isStopRequested: sig_atomic_t = 0

/// `memoapp voice record`: raw PCM from stdin until its end, Ctrl-C or SIGTERM.
enum VoiceRecordCommand {
    static let rate = OptionKey<Int>("rate", "HZ", range: AudioLimits.sampleRates,
                                     help: Localized(en: "sample rate (default 16000)", ko: "샘플링 레이트 (기본 16000)"))
    static let channels = OptionKey<Int>("channels", "N", range: AudioLimits.channels,
                                         help: Localized(en: "channels (default 1)", ko: "채널 수 (기본 1)"))
    static let sampleFormat = OptionKey<RawSampleFormat>("sample-format", "s16|s24|f32",
                                                         help: Localized(en: "little-endian sample format (default s16)",
                                                                         ko: "리틀 엔디언 샘플 형식 (기본 s16)"))
    static let container = OptionKey<RecordingContainer>("format", "flac|wav",
                                                         help: Localized(en: "stored as (default flac)", ko: "저장 형식 (기본 flac)"))
    static let title = OptionKey<String>("title", "T", help: Localized(en: "title (default: Recording and the time)",
                                                                      ko: "제목 (기본: 녹음 시각)"))

    static func make() -> Command {
        Command(
            "record",
            abstract: Localized(en: "record raw PCM from stdin (e.g. from arecord) until its end or Ctrl-C",
                                ko: "표준 입력의 원시 PCM을 녹음 (예: arecord), 입력이 끝나거나 Ctrl-C까지"),
            options: [rate, channels, sampleFormat, container, title, VoiceCommand.tags],
            discussion: Localized(en: "Example: arecord -t raw -f S16_LE -r 16000 | memoapp voice record --title Standup",
                                  ko: "예: arecord -t raw -f S16_LE -r 16000 | memoapp voice record --title 회의"),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard !context.isInputTerminal else {
            throw UsageError(Localized(en: "voice record reads raw PCM from standard input; pipe a recorder into it",
                                       ko: "voice record는 표준 입력에서 원시 PCM을 읽습니다. 녹음 프로그램의 출력을 파이프로 연결하세요"),
                             path: arguments.path)
        }
        let options = RecordingOptions(
            sampleRate: arguments[rate] ?? 16000,
            channels: arguments[channels] ?? 1,
            sampleFormat: arguments[sampleFormat] ?? .s16,
            container: arguments[container] ?? .flac,
            title: arguments[title], tags: arguments[VoiceCommand.tags])
        let store = try VoiceCommand.store(context)
        // Without SA_RESTART nothing blocks for long; the recorder polls the flag.
        isStopRequested = 0
        let handler: @convention(c) (Int32) -> Void = { _ in isStopRequested = 1 }
        let previousInterrupt = signal(SIGINT, handler)
        let previousTerminate = signal(SIGTERM, handler)
        defer {
            signal(SIGINT, previousInterrupt)
            signal(SIGTERM, previousTerminate)
        }
        let showsProgress = context.isErrorTerminal && !context.isJSON
        if showsProgress {
            try context.writeProgress(TerminalText(context.text(en: "Recording… Ctrl-C to stop\n",
                                                                ko: "녹음 중… 멈추려면 Ctrl-C\n")))
        }
        var lastShown = -1
        // The progress callback cannot throw: a refused write stops the
        // recording as Ctrl-C would, and is thrown once what was recorded is stored.
        var progressFailure: Error?
        let memo = try store.record(from: STDIN_FILENO, options: options,
                                    shouldStop: { isStopRequested != 0 || progressFailure != nil }) { frames in
            let seconds = Int(frames) / options.sampleRate
            if showsProgress, progressFailure == nil, seconds != lastShown {
                lastShown = seconds
                do {
                    try context.writeProgress(TerminalText(.carriageReturn) + "● \(TimeOffset.clock(Double(seconds)))"
                                              + TerminalText(.clearToEndOfLine))
                } catch {
                    progressFailure = error
                }
            }
        }
        if let progressFailure { throw progressFailure }
        if showsProgress { try context.writeProgress(TerminalText(.carriageReturn) + TerminalText(.clearToEndOfLine)) }
        try context.emit(json: VoiceCommand.json(memo, store: store),
                     text: context.text(en: "Recorded voice memo ", ko: "음성 메모 녹음함: ")
                        + VoiceCommand.line(memo, context, idWidth: 0))
    }
}
