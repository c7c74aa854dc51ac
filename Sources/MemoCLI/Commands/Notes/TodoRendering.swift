import CommandLineKit
import MemoAPI
import MemoCore
import Notes
import Timers

/// How to-dos look: lines of text, and the wire format's JSON (whose encoder
/// also works out today's bounds and each due's text once for the lines).
final class TodoRenderer {
    let context: CommandContext
    let now: Timestamp
    let calendar: SystemLocalCalendar
    let encoder: WireFormat.TodoEncoder
    let dates: RelativeDate
    /// The relative text of each due seen, kept for a while: many to-dos
    /// share a due, and the list must not grow with the number of rows.
    private var relativeDues: [Due: String] = [:]

    init(_ context: CommandContext) {
        self.context = context
        now = context.clock.now()
        calendar = context.calendar
        encoder = WireFormat.TodoEncoder(now: now, calendar: calendar)
        dates = RelativeDate(now: now, calendar: calendar, language: context.language)
    }

    // MARK: The list's table

    /// The table of `todo list`, its columns sized before any row is read:
    /// ids up to `largestID`, the longest priority label and relative date.
    func table(largestID: Int64) -> TextTable {
        let label = { (en: String, ko: String) in self.context.text(en: en, ko: ko) }
        let priorityWidth = Priority.allCases.map { TerminalText.displayWidth(context.text($0.label)) }.max() ?? 0
        return TextTable([
            .init(label("ID", "ID"), width: String(largestID).count, alignment: .right),
            // ✓ done, ! overdue: said in a sign as well as in colour.
            .init("", width: 1),
            .init(label("PRI", "중요도"), width: priorityWidth, isOptional: true),
            .init(label("DUE", "마감"), width: RelativeDate.maximumWidth(in: context.language)),
            .init(label("TITLE", "제목"), width: 8),
        ], totalWidth: context.tableWidth, style: context.style)
    }

    /// One to-do as a row of `table`: overdue in red, due today in yellow,
    /// done dimmed, high priority bold when colour is on.
    func row(_ todo: Todo, in table: TextTable) -> TerminalText {
        let style = context.style
        let isOverdue = !todo.isDone && todo.isOverdue(at: now)
        let mark: TerminalText = todo.isDone ? style.green("✓") : isOverdue ? style.red("!") : ""
        let priority = todo.priority.map { priority -> TerminalText in
            let label = context.text(priority.label)
            return priority == .high ? style.bold(label) : TerminalText(label)
        } ?? ""
        var due = TerminalText()
        if let value = todo.due {
            let text = relativeText(value)
            due = isOverdue ? style.red(text) : isDueToday(todo) ? style.yellow(text) : TerminalText(text)
        }
        var title = TerminalText(line: todo.title)
        // The rule rides in the title cell: a column of its own would be empty
        // for most to-dos and take width from every title.
        if let mark = repeatMark(todo) { title += "  " + TerminalText(line: mark) }
        if !todo.tags.isEmpty { title += "  " + style.cyan(TerminalText(line: NotesText.tags(todo.tags))) }
        return table.row([TerminalText(String(todo.id)), mark, priority, due, todo.isDone ? style.dim(title) : title])
    }

    /// One to-do in the wire format.
    func json(_ todo: Todo) -> JSON { encoder.json(todo) }

    func json(_ todos: [Todo]) -> JSON { encoder.json(todos) }

    func detail(_ todo: Todo, timeSpent: Double) -> JSON { encoder.detail(todo, timeSpent: timeSpent) }

    /// `  3 [ ] Buy milk  due 2026-11-30 (today) · high · #home`: overdue in red
    /// and due-today in yellow when colour is on, and said in words always.
    func line(_ todo: Todo, idWidth: Int) -> TerminalText {
        let style = context.style
        var text = TerminalText(NotesText.paddedID(todo.id, width: idWidth))
        text += todo.isDone ? " [x] " : " [ ] "
        let title = TerminalText(line: todo.title)
        text += todo.isDone ? style.dim(title) : title
        var separator = "  "
        if let due = todo.due {
            var when = context.text(en: "due ", ko: "마감 ")
            when += dueText(due)
            text += separator
            if todo.isOverdue(at: now) {
                text += style.red(when + context.text(en: " (overdue)", ko: " (지남)"))
            } else if isDueToday(todo) {
                text += style.yellow(when + context.text(en: " (today)", ko: " (오늘)"))
            } else {
                text += when
            }
            separator = " · "
        }
        if let mark = repeatMark(todo) {
            text += separator + mark
            separator = " · "
        }
        if let priority = todo.priority {
            let label = "!" + context.text(priority.label)
            text += separator
            text += priority == .high ? style.bold(label) : TerminalText(label)
            separator = " · "
        }
        if !todo.tags.isEmpty {
            text += separator
            text += style.cyan(TerminalText(line: NotesText.tags(todo.tags)))
        }
        return text
    }

    /// Lines for a list, each cut with … to `columns` when given (the
    /// terminal's width); `empty` when there is nothing.
    func lines(_ todos: [Todo], empty: String, columns: Int?) -> TerminalText {
        guard !todos.isEmpty else { return TerminalText(empty) }
        let width = String(todos.map(\.id).max() ?? 0).count
        var out = TerminalText()
        for todo in todos {
            let whole = line(todo, idWidth: width)
            out += columns.map { whole.truncated(toWidth: $0) } ?? whole
            out += "\n"
        }
        return out
    }

    /// Every field, for `todo show`.
    func details(_ todo: Todo, timeSpent: (spent: MeasuredDuration, timerCount: Int)) -> TerminalText {
        let label = { (en: String, ko: String) in self.context.text(en: en, ko: ko) }
        var lines: [TerminalText] = [context.style.bold("#\(todo.id) \(line: todo.title)")]
        let status = todo.doneAt.map { label("done ", "완료 ") + $0.localMinute } ?? label("open", "진행 중")
        lines.append(TerminalText(label("status:   ", "상태:     ") + status))
        if let due = todo.due {
            var text = TerminalText(dueText(due))
            if todo.isOverdue(at: now) {
                text = context.style.red(text + label(" (overdue)", " (지남)"))
            } else if isDueToday(todo) {
                text = context.style.yellow(text + label(" (today)", " (오늘)"))
            }
            lines.append(label("due:      ", "마감:     ") + text)
        }
        if let remindAt = todo.remindAt {
            lines.append(TerminalText(label("remind:   ", "알림:     ") + remindAt.localMinute))
        }
        if let rule = todo.repeatRule {
            let from = rule.from == .due ? label("from the due date", "마감부터") : label("from the day it is done", "완료한 날부터")
            lines.append(TerminalText(label("repeats:  ", "반복:     ") + context.text(rule.text) + " (" + from + ")"))
        }
        if let priority = todo.priority { lines.append(TerminalText(label("priority: ", "우선순위: ") + context.text(priority.label))) }
        if !todo.tags.isEmpty {
            lines.append(label("tags:     ", "태그:     ") + TerminalText(line: NotesText.tags(todo.tags)))
        }
        if timeSpent.timerCount > 0 {
            let clock = TimerRendering.clock(timeSpent.spent.seconds, roundingUp: false)
            lines.append(TerminalText(label("spent:    ", "쓴 시간:  ")
                + context.text(en: "\(clock) (\(timeSpent.timerCount) timer\(timeSpent.timerCount == 1 ? "" : "s"))",
                               ko: "\(clock) (타이머 \(timeSpent.timerCount)개)")))
        }
        lines.append(TerminalText(label("created:  ", "만든 때:  ") + todo.createdAt.localMinute))
        if let note = todo.note {
            lines.append("")
            lines.append(TerminalText(note))
        }
        return lines.joined(separator: "\n")
    }

    /// `↻ weekly`, `↻ every 2 weeks (from done)`: a recurring to-do's rule
    /// in a list line; nil for a one-off.
    func repeatMark(_ todo: Todo) -> String? {
        guard let rule = todo.repeatRule else { return nil }
        let text = "↻ " + context.text(rule.text)
        return rule.from == .due ? text : text + context.text(en: " (from done)", ko: " (완료 기준)")
    }

    // MARK: - Private

    private func isDueToday(_ todo: Todo) -> Bool { encoder.isDueToday(todo) }

    private func dueText(_ due: Due) -> String { encoder.dueText(due) }

    private func relativeText(_ due: Due) -> String {
        if let text = relativeDues[due] { return text }
        if relativeDues.count >= 4096 { relativeDues.removeAll(keepingCapacity: true) }
        let text = dates.due(due)
        relativeDues[due] = text
        return text
    }
}
