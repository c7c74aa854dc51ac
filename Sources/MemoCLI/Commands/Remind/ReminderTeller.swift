#if canImport(Glibc)
import Glibc
#endif
import MemoAPI
import MemoCore
import MemoKit

/// How `memoapp remind` tells of one event: a desktop notification through
/// `notify-send` when it is on PATH; a line on stdout (with the terminal
/// bell when there is no notification), or a JSON line with --json; and the
/// user's `--exec` command with the event in its environment.
///
/// Runs on the watch's thread alone; the main thread waits in sigwait.
final class ReminderTeller: @unchecked Sendable {
    private let context: CommandContext
    private let notifier: String?
    private let command: String?
    /// A failure that ends the watcher (stdout gone): kept for the main
    /// thread, which is woken by a SIGTERM to itself.
    private(set) var failure: Error?

    init(context: CommandContext, notifier: String?, command: String?) {
        self.context = context
        self.notifier = notifier
        self.command = command
    }

    func tell(_ reminder: DueReminder) {
        do {
            if context.isJSON {
                try context.writeDocument(WireFormat.reminder(reminder).serialized + "\n")
            } else {
                let bell = notifier == nil ? TerminalText(.bell) : TerminalText()
                try context.write(bell + TerminalText(line: line(reminder)) + "\n")
            }
            try context.flush()
        } catch {
            failure = error
            kill(getpid(), SIGTERM)
            return
        }
        if let notifier { notify(reminder, through: notifier) }
        if let command { run(command, for: reminder) }
    }

    // MARK: - Private

    /// `notify-send -a memoapp SUMMARY BODY`: arguments, no shell.
    private func notify(_ reminder: DueReminder, through notifier: String) {
        let summary = self.summary(reminder)
        let body = (reminder.event.title ?? "") + " (" + reminder.event.at.localMinute + ")"
        do {
            let status = try ChildProgram.run([notifier, "-a", "memoapp", summary, body],
                                              environment: context.environment, outputToError: true)
            if status != 0 {
                try? context.warn(context.text(en: "notify-send failed (exit \(status))",
                                               ko: "notify-send가 실패했습니다 (종료 코드 \(status))"))
            }
        } catch {
            try? context.warn(context.text(Failure(error).message))
        }
    }

    /// The `--exec` command through /bin/sh -c, with the event as
    /// MEMOAPP_EVENT, MEMOAPP_ID, MEMOAPP_TITLE, MEMOAPP_AT (RFC 3339) and
    /// MEMOAPP_MISSED (1 or 0).
    private func run(_ command: String, for reminder: DueReminder) {
        let event = reminder.event
        let variables = [
            "MEMOAPP_EVENT": event.kind.rawValue,
            "MEMOAPP_ID": String(event.itemID),
            "MEMOAPP_TITLE": event.title ?? "",
            "MEMOAPP_AT": event.at.rfc3339Milliseconds,
            "MEMOAPP_MISSED": reminder.isMissed ? "1" : "0",
        ]
        do {
            let environment = context.environment.merging(variables) { _, event in event }
            let status = try ChildProgram.run(["/bin/sh", "-c", command], environment: environment,
                                              outputToError: context.isJSON)
            if status != 0 {
                try? context.warn(context.text(en: "--exec command failed (exit \(status))",
                                               ko: "--exec 명령이 실패했습니다 (종료 코드 \(status))"))
            }
        } catch {
            try? context.warn(context.text(Failure(error).message))
        }
    }

    private func summary(_ reminder: DueReminder) -> String {
        let missed = reminder.isMissed ? context.text(en: "Missed: ", ko: "놓친 알림: ") : ""
        switch reminder.event.kind {
        case .timerFinished: return missed + context.text(en: "Timer finished", ko: "타이머 완료")
        case .todoDue: return missed + context.text(en: "To-do due", ko: "할 일 마감")
        case .todoRemind: return missed + context.text(en: "To-do reminder", ko: "할 일 알림")
        }
    }

    /// `Timer finished: timer 3 "tea" (2026-12-02 14:05)`, one line.
    private func line(_ reminder: DueReminder) -> String {
        let event = reminder.event
        let noun = event.kind == .timerFinished ? context.text(en: "timer", ko: "타이머")
                                                : context.text(en: "to-do", ko: "할 일")
        let title = event.title.map { " \"\($0)\"" } ?? ""
        return summary(reminder) + ": \(noun) \(event.itemID)\(title) (\(event.at.localMinute))"
    }
}
