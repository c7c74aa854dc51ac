import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
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
                        options: [label, todo], positionals: [duration],
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
                Command("dismiss", abstract: Localized(en: "take finished timers off the main screen",
                                                       ko: "끝난 타이머를 메인 화면에서 치우기"),
                        options: [dismissAll], positionals: [optionalID],
                        discussion: Localized(
                            en: "A finished countdown stays on the main screen until seen: 'timer list', 'timer status ID' "
                                + "or this. Give an ID or --all.",
                            ko: "끝난 카운트다운은 볼 때까지 메인 화면에 남습니다: 'timer list', 'timer status ID', 또는 이 명령. "
                                + "ID나 --all을 주세요."),
                        body: dismiss),
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
                                          decode: { try TimerRecord.label(from: $0) })
    static let duration = Arguments<String>("DURATION", minimum: 0,
                                            help: Localized(en: "how long; none starts a stopwatch",
                                                            ko: "길이; 없으면 스톱워치"))
    static let all = Flag("all", help: Localized(en: "also finished, cancelled and stopped ones",
                                                 ko: "완료, 취소, 정지된 타이머도"))
    static let dismissAll = Flag("all", help: Localized(en: "every finished timer", ko: "끝난 타이머 모두"))
    static let todo = OptionKey<Int>("todo", "ID", range: 1...Int.max,
                                     help: Localized(en: "spend its time on this to-do ('memoapp todo show ID' sums it)",
                                                     ko: "이 할 일에 시간 기록 ('memoapp todo show ID'가 합산)"))
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
        let todoID = arguments[TimerCommand.todo].map(Int64.init)
        let snapshot = try context.apply(StartTimer(duration: duration, label: label, todoID: todoID))
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
        let store = try store(context)
        // Finished countdowns not yet seen are listed (then seen); --all lists every timer.
        // --limit cuts before they are marked seen: one not shown stays unseen.
        let listed = includingEnded ? try store.snapshots(includingEnded: true)
                                    : try store.snapshots(includingEnded: false) + store.unseenFinished()
        let snapshots = try seeing(Array(listed.prefix(arguments[NotesArguments.limit] ?? Int.max)), store)
        let text = snapshots.isEmpty
            ? TerminalText(includingEnded ? context.text(en: "No timers.", ko: "타이머가 없습니다.")
                                          : context.text(en: "No running or paused timers.",
                                                         ko: "실행 중이거나 일시정지된 타이머가 없습니다."))
            : TimerRendering.table(snapshots, context)
        try context.emit(json: .array(snapshots.map(WireFormat.timer)), text: text)
    }

    static func status(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try store(context)
        let snapshot = try seeing([arguments[optionalID].map { try store.snapshot(ofTimer: $0) } ?? store.newestRunning()],
                                  store)[0]
        try context.emit(json: WireFormat.timer(snapshot), text: TimerStatusText.render(snapshot, context))
    }

    static func act(_ action: TimerAction, _ context: CommandContext, _ arguments: ParsedArguments) throws {
        let id = try arguments[TimerCommand.optionalID] ?? onlyTimer(accepting: action, context, arguments)
        let snapshot = try context.apply(ActOnTimer(action, id: id))
        try context.emit(json: WireFormat.timer(snapshot), text: TimerStatusText.confirmation(action, snapshot, context))
    }

    static func dismiss(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try store(context)
        let ids: [Int64]
        switch (arguments[optionalID], arguments[dismissAll]) {
        case let (id?, false):
            try TimerStore.checkDismissible(try store.snapshot(ofTimer: id))
            ids = [id]
        case (nil, true):
            ids = try store.unseenFinished().map(\.timer.id)
        default:
            throw UsageError(Localized(en: "give a timer's ID or --all", ko: "타이머 ID나 --all을 주세요"), path: arguments.path)
        }
        let count = try context.apply(DismissTimers(ids: ids))
        try context.emit(json: .object([("dismissed", .int(Int64(count)))]),
                         text: context.text(en: count == 1 ? "Dismissed 1 timer." : "Dismissed \(count) timers.",
                                            ko: "타이머 \(count)개를 치웠습니다."))
    }

    // MARK: - Shared

    /// `snapshots` about to be shown, the ended ones among them marked seen
    /// and read again with their mark (best effort: a read-only database must
    /// not make a listing fail).
    static func seeing(_ snapshots: [TimerSnapshot], _ store: TimerStore) throws -> [TimerSnapshot] {
        let unseen = Set(snapshots.filter { !$0.timer.state.isActive && $0.timer.seenAt == nil }.map(\.timer.id))
        guard !unseen.isEmpty, (try? store.markSeen(ids: Array(unseen))) != nil else { return snapshots }
        return try snapshots.map { unseen.contains($0.timer.id) ? try store.snapshot(ofTimer: $0.timer.id) : $0 }
    }

    /// The store over this invocation's database, on the machine's real clocks.
    static func store(_ context: CommandContext) throws -> TimerStore {
        try context.workspace.timerStore()
    }

    /// Actions that take the only timer they can apply to when no id is given
    /// (`timer pause`, `timer lap`): cancelling stays explicit.
    static let actionsWithoutID: Set<TimerAction> = [.pause, .resume, .lap, .stop]

    private static func action(_ action: TimerAction, _ abstract: Localized) -> Command {
        let takesOnlyTimer = actionsWithoutID.contains(action)
        return Command(action.rawValue, abstract: abstract, positionals: [takesOnlyTimer ? optionalID : id],
                       discussion: takesOnlyTimer
                           ? Localized(en: "Without ID: the only timer it applies to; with none or several, a usage error "
                                           + "that lists them.",
                                       ko: "ID가 없으면 적용할 수 있는 유일한 타이머에; 없거나 여럿이면 그 목록과 함께 사용법 오류입니다.")
                           : nil,
                       body: { context, arguments in try act(action, context, arguments) })
    }

    /// The id of the one active timer `action` applies to (a running one to
    /// pause, a paused one to resume, a running stopwatch to lap), or a usage
    /// error that lists the candidates (none or several).
    private static func onlyTimer(accepting action: TimerAction, _ context: CommandContext,
                                  _ arguments: ParsedArguments) throws -> Int64 {
        let active = try store(context).snapshots(includingEnded: false)
        let candidates = active.filter { (try? $0.timer.applying(action, at: $0.reading)) != nil }
        if candidates.count == 1 { return candidates[0].timer.id }
        let listed = (candidates.isEmpty ? active : candidates)
            .map { "\($0.timer.id) (\(context.text($0.timer.kind.name)), \(context.text($0.timer.state.name)))" }
            .joined(separator: ", ")
        let known = listed.isEmpty ? context.text(en: "no active timers", ko: "활성 타이머 없음") : listed
        throw UsageError(
            candidates.isEmpty
                ? Localized(en: "no timer to \(action.rawValue) (\(known)); give an ID",
                            ko: "\(action.rawValue)할 타이머가 없습니다 (\(known)). ID를 주세요")
                : Localized(en: "several timers to \(action.rawValue): \(known); give one ID",
                            ko: "\(action.rawValue)할 타이머가 여럿입니다: \(known). ID 하나를 주세요"),
            path: arguments.path)
    }
}
