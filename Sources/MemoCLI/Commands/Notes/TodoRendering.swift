import MemoCore
import Notes

/// How to-dos look: JSON objects and lines of text.
struct TodoRenderer {
    let context: CommandContext
    let now: Timestamp
    let calendar: SystemLocalCalendar

    init(_ context: CommandContext) {
        self.context = context
        now = context.clock.now()
        calendar = context.calendar
    }

    /// One to-do as JSON. `due_at` is the moment it becomes overdue (for a
    /// date-only due, the last second of that local day); `due_local` is what
    /// the user gave, in local time, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM`.
    func json(_ todo: Todo) -> JSON {
        .object([
            ("id", .int(todo.id)),
            ("title", .string(todo.title)),
            ("note", .optional(todo.note)),
            ("priority", .optional(todo.priority?.name)),
            ("tags", .strings(todo.tags)),
            ("due_at", .optional(todo.due?.instant)),
            ("due_local", .optional(todo.due?.description(in: calendar))),
            ("due_has_time", .bool(todo.due?.hasTime ?? false)),
            ("is_done", .bool(todo.isDone)),
            ("is_overdue", .bool(todo.isOverdue(at: now))),
            ("is_due_today", .bool(todo.isDueToday(at: now, in: calendar))),
            ("done_at", .optional(todo.doneAt)),
            ("created_at", .time(todo.createdAt)),
            ("updated_at", .time(todo.updatedAt)),
        ])
    }

    func json(_ todos: [Todo]) -> JSON {
        .array(todos.map(json))
    }

    /// `  3 [ ] Buy milk  due 2026-11-30 (today) · high · #home`: overdue in red
    /// and due-today in yellow when colour is on, and said in words always.
    func line(_ todo: Todo, idWidth: Int) -> String {
        let style = context.style
        var text = NotesText.paddedID(todo.id, width: idWidth) + " " + (todo.isDone ? "[x] " : "[ ] ")
        text += todo.isDone ? style.dim(todo.title) : todo.title
        var details: [String] = []
        if let due = todo.due {
            let when = context.text(en: "due ", ko: "마감 ") + due.description(in: calendar)
            if todo.isOverdue(at: now) {
                details.append(style.red(when + context.text(en: " (overdue)", ko: " (지남)")))
            } else if todo.isDueToday(at: now, in: calendar) {
                details.append(style.yellow(when + context.text(en: " (today)", ko: " (오늘)")))
            } else {
                details.append(when)
            }
        }
        if let priority = todo.priority {
            let label = "!" + context.text(priority.label)
            details.append(priority == .high ? style.bold(label) : label)
        }
        if !todo.tags.isEmpty { details.append(style.cyan(NotesText.tags(todo.tags))) }
        if !details.isEmpty { text += "  " + details.joined(separator: " · ") }
        return text
    }

    /// Lines for a list; `empty` when there is nothing.
    func lines(_ todos: [Todo], empty: String) -> String {
        guard !todos.isEmpty else { return empty }
        let width = String(todos.map(\.id).max() ?? 0).count
        var out = ""
        for todo in todos {
            out += line(todo, idWidth: width)
            out += "\n"
        }
        return out
    }

    /// Every field, for `todo show`.
    func details(_ todo: Todo) -> String {
        let label = { (en: String, ko: String) in context.text(en: en, ko: ko) }
        var lines = [context.style.bold("#\(todo.id) \(todo.title)")]
        let status = todo.doneAt.map { label("done ", "완료 ") + $0.localMinute } ?? label("open", "진행 중")
        lines.append(label("status:   ", "상태:     ") + status)
        if let due = todo.due {
            var text = due.description(in: calendar)
            if todo.isOverdue(at: now) {
                text = context.style.red(text + label(" (overdue)", " (지남)"))
            } else if todo.isDueToday(at: now, in: calendar) {
                text = context.style.yellow(text + label(" (today)", " (오늘)"))
            }
            lines.append(label("due:      ", "마감:     ") + text)
        }
        if let priority = todo.priority { lines.append(label("priority: ", "우선순위: ") + context.text(priority.label)) }
        if !todo.tags.isEmpty { lines.append(label("tags:     ", "태그:     ") + NotesText.tags(todo.tags)) }
        lines.append(label("created:  ", "만든 때:  ") + todo.createdAt.localMinute)
        if let note = todo.note {
            lines.append("")
            lines.append(note)
        }
        return lines.joined(separator: "\n")
    }
}
