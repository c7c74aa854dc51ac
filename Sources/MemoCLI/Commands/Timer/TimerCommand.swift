import CommandLineKit
import MemoAPI
import MemoCore
import Timers

/// `memoapp timer …`: countdowns and stopwatches that live in the database,
/// so they keep running when no memoapp process does.
enum TimerCommand {
    static func make() -> Command {
        Command(
            "timer",
            abstract: Localized(en: "countdowns and stopwatches that outlive the process",
                                ko: "프로세스가 끝나도 계속 가는 카운트다운과 스톱워치"),
            // Bare `timer` lists, as bare `todo` and `memo` do.
            options: [all, NotesArguments.limit],
            subcommands: [
                Command("start", abstract: Localized(en: "start a countdown (with DURATION) or a stopwatch",
                                                     ko: "카운트다운(DURATION 지정) 또는 스톱워치 시작"),
                        options: [label], positionals: [duration],
                        discussion: Localized(en: "DURATION forms: \(DurationParser.forms.en).",
                                              ko: "DURATION 형식: \(DurationParser.forms.ko)."),
                        body: start),
                Command("list", abstract: Localized(en: "running and paused timers", ko: "실행 중이거나 일시정지된 타이머"),
                        options: [all, NotesArguments.limit],
                        body: list),
                Command("status", abstract: Localized(en: "one timer in full (default: the newest running one)",
                                                      ko: "타이머 하나의 자세한 상태 (기본: 가장 최근 실행 중인 것)"),
                        positionals: [optionalID],
                        body: status),
                action(.pause, Localized(en: "pause a running timer", ko: "실행 중인 타이머 일시정지")),
                action(.resume, Localized(en: "resume a paused timer", ko: "일시정지된 타이머 재개")),
                action(.cancel, Localized(en: "cancel a timer (kept as cancelled)", ko: "타이머 취소 (취소됨으로 남음)")),
                action(.lap, Localized(en: "record a lap on a running stopwatch", ko: "실행 중인 스톱워치에 랩 기록")),
                action(.stop, Localized(en: "stop a stopwatch and keep its total", ko: "스톱워치를 멈추고 기록 보존")),
                Command("wait", abstract: Localized(en: "wait until a countdown ends (default: the newest running one)",
                                                    ko: "카운트다운이 끝날 때까지 기다리기 (기본: 가장 최근 실행 중인 것)"),
                        positionals: [optionalID],
                        discussion: Localized(
                            en: "On a terminal it shows a live countdown and rings the bell at the end; otherwise it "
                                + "prints once, at the end. Ctrl-C stops waiting, not the timer (exit 130). "
                                + "A pause makes it wait longer; a cancel ends it with exit 5.",
                            ko: "터미널에서는 남은 시간을 실시간으로 보여 주고 끝나면 벨을 울립니다. 그 밖에는 끝날 때 한 번만 "
                                + "출력합니다. Ctrl-C는 기다리기만 멈추고 타이머는 계속 갑니다 (종료 코드 130). "
                                + "일시정지하면 더 기다리고, 취소되면 종료 코드 5로 끝납니다."),
                        body: TimerWait.run),
            ],
            body: list)
    }

    // MARK: - Declarations

    static let label = OptionKey<String?>("label", "L", help: Localized(en: "a name for the timer", ko: "타이머 이름"),
                                          decode: TimerRecord.label(from:))
    static let duration = Arguments<String>("DURATION", minimum: 0,
                                            help: Localized(en: "how long; none starts a stopwatch",
                                                            ko: "길이; 없으면 스톱워치"))
    static let all = Flag("all", help: Localized(en: "also finished, cancelled and stopped ones",
                                                 ko: "완료, 취소, 정지된 타이머도"))
    static let idHelp = Localized(en: "the timer's id (see 'memoapp timer list')", ko: "타이머 번호 ('memoapp timer list' 참고)")
    static let id = Argument<Int64>("ID", range: 1...Int.max, help: idHelp)
    static let optionalID = OptionalArgument<Int64>("ID", range: 1...Int.max, help: idHelp)

    // MARK: - Subcommands

    static func start(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let words = arguments[TimerCommand.duration]
        let duration = try context.parsingArgument(arguments) {
            words.isEmpty ? nil : try DurationParser.seconds(in: words.joined(separator: " "))
        }
        let label = arguments[TimerCommand.label] ?? nil
        let snapshot = try context.recordingUndo { try store(context).start(duration: duration, label: label) }
        let timer = snapshot.timer
        var text: TerminalText
        if let duration, let end = snapshot.endTime {
            let endText = TimerRendering.localTime(end, now: snapshot.reading.wall)
            let length = TimerRendering.clock(duration, roundingUp: true)
            text = context.text(en: "Started countdown \(TimerRendering.name(timer)): \(length), ends at \(endText).",
                                ko: "카운트다운 \(TimerRendering.name(timer)) 시작: \(length), \(endText)에 끝납니다.")
        } else {
            text = context.text(en: "Started stopwatch \(TimerRendering.name(timer)).",
                                ko: "스톱워치 \(TimerRendering.name(timer)) 시작.")
        }
        try context.emit(json: WireFormat.timer(snapshot), text: text)
    }

    static func list(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let includingEnded = arguments[TimerCommand.all]
        let snapshots = Array(try store(context).snapshots(includingEnded: includingEnded)
            .prefix(arguments[NotesArguments.limit] ?? Int.max))
        let text = snapshots.isEmpty
            ? TerminalText(includingEnded ? context.text(en: "No timers.", ko: "타이머가 없습니다.")
                                          : context.text(en: "No running or paused timers.",
                                                         ko: "실행 중이거나 일시정지된 타이머가 없습니다."))
            : TimerRendering.table(snapshots, context)
        try context.emit(json: .array(snapshots.map(WireFormat.timer)), text: text)
    }

    static func status(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try store(context)
        let snapshot = try arguments[optionalID].map { try store.snapshot(ofTimer: $0) }
            ?? store.newestRunning()
        try context.emit(json: WireFormat.timer(snapshot), text: TimerStatusText.render(snapshot, context))
    }

    static func act(_ action: TimerAction, _ context: CommandContext, _ arguments: ParsedArguments) throws {
        let id = arguments[TimerCommand.id]
        let snapshot = try context.recordingUndo { try store(context).apply(action, toTimer: id) }
        try context.emit(json: WireFormat.timer(snapshot), text: TimerStatusText.confirmation(action, snapshot, context))
    }

    // MARK: - Shared

    /// The store over this invocation's database, on the machine's real clocks.
    static func store(_ context: CommandContext) throws -> TimerStore {
        try context.workspace.timerStore()
    }

    private static func action(_ action: TimerAction, _ abstract: Localized) -> Command {
        Command(action.rawValue, abstract: abstract, positionals: [id],
                body: { context, arguments in try act(action, context, arguments) })
    }
}
