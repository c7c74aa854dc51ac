#if canImport(Glibc)
import Glibc
#endif
import CommandLineKit
import MemoCore
import MemoKit
import Notes

/// `memoapp remind`: the watcher that tells the user when a countdown ends,
/// a to-do falls due or its `--remind` time comes, until Ctrl-C or SIGTERM.
/// Sleeps between events (see `ReminderWatch`); the telling is
/// `ReminderTeller`'s.
enum RemindCommand {
    static func make() -> Command {
        Command(
            "remind",
            abstract: Localized(en: "tell when timers end and to-dos fall due (runs until stopped)",
                                ko: "타이머가 끝나거나 할 일 마감·알림 시각이 되면 알리기 (멈출 때까지 실행)"),
            options: [execute],
            discussion: Localized(
                en: "A desktop notification through notify-send when it is on PATH, else the terminal bell; always a line "
                    + "on stdout (a JSON line with --json). A to-do due on a date without a time is told at "
                    + "\(Due.dateOnlyReminderTime) that day. Each event is told once, also across restarts; events that "
                    + "came due while no watcher ran are told at start as missed, unless older than 24 hours. It sleeps "
                    + "until the next event and wakes when the data home's database changes. Ctrl-C or SIGTERM stops it "
                    + "(exit 0). --exec runs CMD through /bin/sh -c with MEMOAPP_EVENT (timer.finished, todo.due, "
                    + "todo.remind), MEMOAPP_ID, MEMOAPP_TITLE, MEMOAPP_AT and MEMOAPP_MISSED set, and waits for it.",
                ko: "notify-send가 PATH에 있으면 데스크톱 알림을, 없으면 터미널 벨을 울리고, 언제나 stdout에 한 줄 씁니다 "
                    + "(--json이면 JSON 한 줄). 시각 없이 날짜만 있는 할 일은 그날 \(Due.dateOnlyReminderTime)에 알립니다. "
                    + "알림은 다시 시작해도 한 번만 합니다. 감시하지 않는 동안 지난 알림은 시작할 때 놓친 알림으로 알리되, "
                    + "24시간보다 오래된 것은 알리지 않습니다. 다음 알림까지 잠들었다가 데이터베이스가 바뀌면 깨어납니다. "
                    + "Ctrl-C나 SIGTERM으로 멈춥니다 (종료 코드 0). --exec는 CMD를 /bin/sh -c로 실행하며 MEMOAPP_EVENT "
                    + "(timer.finished, todo.due, todo.remind), MEMOAPP_ID, MEMOAPP_TITLE, MEMOAPP_AT, MEMOAPP_MISSED를 "
                    + "환경에 넣고, 끝날 때까지 기다립니다."),
            body: run)
    }

    static let execute = OptionKey<String>(
        "exec", "CMD", help: Localized(en: "also run this shell command for each event", ko: "알림마다 이 셸 명령도 실행"),
        decode: { text in
            guard text.contains(where: { !$0.isWhitespace }) else {
                throw MemoError(.usage, en: "--exec needs a command", ko: "--exec에는 명령이 필요합니다")
            }
            return text
        })

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        // Blocked before the watch's threads start (they inherit the mask),
        // so that only sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        defer { pthread_sigmask(SIG_UNBLOCK, &signals, nil) }

        let notifier = ChildProgram.find("notify-send", in: context.environment)
        if !context.isJSON {
            // Written before the watch's thread starts: from then on stdout is its alone.
            let banner: TerminalText = context.text(
                en: "Watching \(line: context.home.path) for reminders (Ctrl-C stops).\n",
                ko: "\(line: context.home.path)의 알림을 지켜보는 중 (Ctrl-C로 멈춤).\n")
            try context.write(banner)
            try context.flush()
        }
        // Opened (and migrated) here, on this thread, before the watch's
        // thread takes the workspace over.
        _ = try context.workspace.database()
        let teller = ReminderTeller(context: context, notifier: notifier, command: arguments[execute])
        let watch = ReminderWatch(workspace: context.workspace, tell: teller.tell)
        try watch.start()
        var received: Int32 = 0
        sigwait(&signals, &received)
        watch.stop()
        if let failure = teller.failure { throw failure }
    }
}
