import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `memoapp undo`: reverts the newest change in the undo history (MemoKit's
/// `UndoHistory`), again and again; `--list` shows what it would revert.
enum UndoCommand {
    static func make() -> Command {
        Command(
            "undo",
            abstract: Localized(en: "revert the last change; again to go further back",
                                ko: "마지막 변경 되돌리기; 다시 하면 더 이전으로"),
            options: [list],
            discussion: Localized(
                en: "The history holds the last \(UndoHistory.defaultLimit) changes made by memoapp's commands "
                    + "(to-dos, memos, voice memo removals, trims and renames, timers, imports). The audio a "
                    + "removal or a trim replaced is kept in voice/.undo until its change leaves the history.",
                ko: "memoapp 명령으로 한 최근 변경 \(UndoHistory.defaultLimit)개를 기억합니다 (할 일, 메모, 음성 메모 "
                    + "삭제·자르기·제목 바꾸기, 타이머, 가져오기). 삭제나 자르기로 바뀐 오디오는 그 변경이 기록에서 "
                    + "빠질 때까지 voice/.undo에 남습니다."),
            body: run)
    }

    static let list = Flag("list", help: Localized(en: "show what undo would revert, newest first",
                                                   ko: "되돌릴 변경 목록 (최근 것부터)"))

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let history = try context.workspace.undoHistory()
        if arguments[list] {
            let steps = try history.steps()
            let dates = RelativeDate(now: context.clock.now(), calendar: context.calendar, language: context.language)
            let rows = steps.map { [TerminalText(dates.past($0.createdAt)), TerminalText(line: $0.description)] }
            let table = TextTable([
                .init(context.text(en: "WHEN", ko: "언제"), width: rows.map { $0[0].displayWidth }.max() ?? 0),
                .init(context.text(en: "CHANGE", ko: "변경"), width: 8),
            ], totalWidth: context.tableWidth, style: context.style)
            let text = steps.isEmpty
                ? TerminalText(context.text(en: "Nothing to undo.", ko: "되돌릴 것이 없습니다."))
                : ([table.header] + rows.map(table.row)).joined(separator: "\n")
            return try context.emit(json: .array(steps.map(WireFormat.undoStep)), text: text)
        }
        let step = try history.undo()
        try context.emit(json: WireFormat.undoStep(step),
                         text: context.text(en: "Undid: ", ko: "되돌림: ") + TerminalText(line: step.description))
    }
}
