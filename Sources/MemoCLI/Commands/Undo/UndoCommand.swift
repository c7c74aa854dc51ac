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
            options: [list, forget],
            exclusiveOptions: [[list, forget]],
            discussion: Localized(
                en: "The history holds the last \(UndoHistory.defaultLimit) changes made by memoapp's commands "
                    + "and through `memoapp serve` (the web page, the API), whichever made them "
                    + "(to-dos, memos, voice memo removals, trims and renames, timers, imports). The audio a "
                    + "removal or a trim replaced is kept in voice/.undo until its change leaves the history, "
                    + "or --forget empties the history and deletes that audio at once.",
                ko: "memoapp 명령과 `memoapp serve`(웹 페이지, API)로 한 최근 변경 \(UndoHistory.defaultLimit)개를 "
                    + "어디서 했든 기억합니다 (할 일, 메모, 음성 메모 "
                    + "삭제·자르기·제목 바꾸기, 타이머, 가져오기). 삭제나 자르기로 바뀐 오디오는 그 변경이 기록에서 "
                    + "빠질 때까지 voice/.undo에 남고, --forget은 기록을 비우고 그 오디오를 바로 지웁니다."),
            body: run)
    }

    static let list = Flag("list", help: Localized(en: "show what undo would revert, newest first",
                                                   ko: "되돌릴 변경 목록 (최근 것부터)"))
    static let forget = Flag("forget", help: Localized(en: "empty the history and delete the audio it kept, now",
                                                       ko: "기록을 비우고 남겨 둔 오디오를 바로 지우기"))

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let history = try context.workspace.undoHistory()
        if arguments[list] {
            let steps = try history.steps()
            let dates = RelativeDate(now: context.clock.now(), calendar: context.calendar, language: context.language)
            let rows = steps.map { [TerminalText(dates.past($0.createdAt)), described($0, context)] }
            let table = TextTable([
                .init(context.text(en: "WHEN", ko: "언제"), width: rows.map { $0[0].displayWidth }.max() ?? 0),
                .init(context.text(en: "CHANGE", ko: "변경"), width: 8),
            ], totalWidth: context.tableWidth, style: context.style)
            let text = steps.isEmpty
                ? TerminalText(context.text(en: "Nothing to undo.", ko: "되돌릴 것이 없습니다."))
                : ([table.header] + rows.map(table.row)).joined(separator: "\n")
            return try context.emit(json: .array(steps.map(WireFormat.undoStep)), text: text)
        }
        if arguments[forget] {
            let count = try history.forgetAll()
            return try context.emit(json: .object([("forgotten", .int(Int64(count)))]),
                                    text: TerminalText(context.text(en: count == 1 ? "Forgot 1 change." : "Forgot \(count) changes.",
                                                                    ko: "변경 \(count)개를 잊었습니다.")))
        }
        let step = try history.undo()
        try context.emit(json: WireFormat.undoStep(step),
                         text: context.text(en: "Undid: ", ko: "되돌림: ") + described(step, context))
    }

    /// A step's words, with where it was made when not on the command line:
    /// `todo done 3 (web)`.
    static func described(_ step: UndoStep, _ context: CommandContext) -> TerminalText {
        let words = TerminalText(line: step.description)
        switch step.origin {
        case .cli: return words
        case .api: return words + TerminalText(context.text(en: " (API)", ko: " (API)"))
        case .web: return words + TerminalText(context.text(en: " (web page)", ko: " (웹 페이지)"))
        }
    }
}
