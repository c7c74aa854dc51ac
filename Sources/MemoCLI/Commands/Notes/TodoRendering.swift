import CommandLineKit
import MemoAPI
import MemoCore
import Notes

/// How to-dos look: lines of text, and the wire format's JSON (whose encoder
/// also works out today's bounds and each due's text once for the lines).
final class TodoRenderer {
    let context: CommandContext
    let now: Timestamp
    let calendar: SystemLocalCalendar
    let encoder: WireFormat.TodoEncoder

    init(_ context: CommandContext) {
        self.context = context
        now = context.clock.now()
        calendar = context.calendar
        encoder = WireFormat.TodoEncoder(now: now, calendar: calendar)
    }

    /// One to-do in the wire format.
    func json(_ todo: Todo) -> JSON { encoder.json(todo) }

    func json(_ todos: [Todo]) -> JSON { encoder.json(todos) }

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

    /// Lines for a list; `empty` when there is nothing.
    func lines(_ todos: [Todo], empty: String) -> TerminalText {
        guard !todos.isEmpty else { return TerminalText(empty) }
        let width = String(todos.map(\.id).max() ?? 0).count
        var out = TerminalText()
        for todo in todos {
            out += line(todo, idWidth: width)
            out += "\n"
        }
        return out
    }

    /// Every field, for `todo show`.
    func details(_ todo: Todo) -> TerminalText {
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
        if let rule = todo.repeatRule {
            let from = rule.from == .due ? label("from the due date", "마감부터") : label("from the day it is done", "완료한 날부터")
            lines.append(TerminalText(label("repeats:  ", "반복:     ") + context.text(rule.text) + " (" + from + ")"))
        }
        if let priority = todo.priority { lines.append(TerminalText(label("priority: ", "우선순위: ") + context.text(priority.label))) }
        if !todo.tags.isEmpty {
            lines.append(label("tags:     ", "태그:     ") + TerminalText(line: NotesText.tags(todo.tags)))
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
}
