import CommandLineKit
import MemoAPI
import MemoCore
import Notes

/// The main screen's part for to-dos and memos: what is overdue, what is due
/// today, and the latest memos.
enum NotesMainScreen {
    /// Memos the main screen shows.
    static let latestMemoCount = 5

    static func section(_ context: CommandContext) throws -> MainScreen.Section {
        let todos = try context.todoStore()
        let now = context.clock.now()
        let overdue = try todos.todos(matching: TodoQuery(due: .overdue))
        let dueToday = try todos.todos(matching: TodoQuery(due: .today)).filter { !$0.isOverdue(at: now) }
        let openCount = try todos.counts().open
        let memos = try context.memoStore()
        let latest = try memos.summaries(limit: latestMemoCount)
        let memoCount = try memos.count()

        let todoRenderer = TodoRenderer(context)
        let memoRenderer = MemoRenderer(context: context)
        let style = context.style
        var text = TerminalText()
        if !overdue.isEmpty {
            text += style.red(context.text(en: "Overdue (\(overdue.count))", ko: "지난 할 일 (\(overdue.count))")) + "\n"
            text += todoRenderer.lines(overdue, empty: "", columns: context.tableWidth)
        }
        text += style.bold(context.text(en: "Due today (\(dueToday.count))", ko: "오늘 할 일 (\(dueToday.count))")) + "\n"
        text += todoRenderer.lines(dueToday, empty: context.text(en: "  Nothing due today.\n",
                                                                 ko: "  오늘 마감인 할 일이 없습니다.\n"),
                                   columns: context.tableWidth)
        text += style.dim(context.text(en: "\(openCount) open to-do\(openCount == 1 ? "" : "s") in all: memoapp todo list",
                                       ko: "진행 중인 할 일 모두 \(openCount)개: memoapp todo list")) + "\n\n"
        text += style.bold(context.text(en: "Latest memos", ko: "최근 메모")) + "\n"
        text += memoRenderer.lines(latest, empty: context.text(en: "  No memos yet: memoapp memo add TEXT\n",
                                                               ko: "  메모가 아직 없습니다: memoapp memo add 내용\n"),
                                   columns: context.tableWidth)
        if memoCount > latest.count {
            text += style.dim(context.text(en: "\(memoCount) memos in all: memoapp memo list",
                                           ko: "메모 모두 \(memoCount)개: memoapp memo list")) + "\n"
        }
        let json = WireFormat.notesOverview(overdue: overdue, dueToday: dueToday, openTodoCount: openCount,
                                            latestMemos: latest, memoCount: memoCount, encoder: todoRenderer.encoder)
        return MainScreen.Section(key: "notes", json: json, text: text)
    }
}
