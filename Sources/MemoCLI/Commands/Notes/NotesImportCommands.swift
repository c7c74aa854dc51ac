import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes

/// `memoapp todo import --from todotxt|taskwarrior FILE…` and
/// `memoapp memo import FILE…`: every file is read and checked before anything
/// is written, then everything goes in in one transaction, so a malformed file
/// imports nothing. Items imported before (the same uid) are not added again.
enum NotesImportCommands {
    typealias TodoFormat = ToolImport.TodoFormat

    static let format = OptionKey<TodoFormat>("from", "todotxt|taskwarrior", required: true,
                                              help: Localized(en: "the files' format", ko: "파일 형식"))
    static let todoFiles = Arguments<String>("FILE", kind: .path,
                                             help: Localized(en: "todo.txt files, or `task export` output",
                                                             ko: "todo.txt 파일, 또는 `task export` 출력"))
    static let memoFiles = Arguments<String>("FILE", kind: .path,
                                             help: Localized(en: "UTF-8 text files, or folders of .md, .markdown and .txt files",
                                                             ko: "UTF-8 텍스트 파일, 또는 .md, .markdown, .txt 파일이 든 폴더"))

    static let dryRun = Flag("dry-run", help: Localized(en: "check the files and count; change nothing",
                                                               ko: "파일을 검사하고 세기만 함; 아무것도 바꾸지 않음"))

    static let todoImport = Command(
        "import", abstract: Localized(en: "import to-dos from todo.txt or Taskwarrior",
                                      ko: "todo.txt나 Taskwarrior에서 할 일 가져오기"),
        options: [format, dryRun],
        positionals: [todoFiles],
        discussion: Localized(
            en: """
                todotxt: (A) is high, (B) medium, (C) to (Z) low; x marks done (completion, then creation date); \
                +project and @context stay in the title and become tags without the sign (+home and @home are the tag home); due:YYYY-MM-DD is the due \
                date; other key:value words go to the note.
                taskwarrior: the JSON array of `task export`; H, M, L priorities; project:NAME and the tags as \
                tags; annotations in the note; deleted tasks and recurring templates are skipped.
                A malformed file imports nothing (exit 65, naming the line or JSON path). What was imported \
                before (the same line, the same task uuid) is not added again.
                """,
            ko: """
                todotxt: (A)는 높음, (B)는 보통, (C)~(Z)는 낮음; x는 완료 (완료 날짜, 그다음 만든 날짜); \
                +project와 @context는 제목에 남고 기호 없이 태그가 됨 (+home과 @home은 태그 home); due:YYYY-MM-DD는 마감; \
                그 밖의 key:value는 메모로 감.
                taskwarrior: `task export`의 JSON 배열; 우선순위 H, M, L; project:이름과 태그는 태그로; \
                주석(annotation)은 메모로; 지운 작업과 반복 원본은 건너뜀.
                형식이 잘못된 파일이 있으면 아무것도 가져오지 않음 (종료 코드 65, 줄이나 JSON 경로를 알려 줌). \
                이미 가져온 것(같은 줄, 같은 작업 uuid)은 다시 추가하지 않음.
                """),
        body: { context, arguments in try runTodoImport(context, arguments) })

    static let memoImport = Command(
        "import", abstract: Localized(en: "import Markdown or text files, one memo each",
                                      ko: "Markdown이나 텍스트 파일을 하나씩 메모로 가져오기"),
        options: [dryRun],
        positionals: [memoFiles],
        discussion: Localized(
            en: """
                The memo's text is the file as written; its title is the first heading (# Title, or Title over \
                ===) when the file starts with one. A file `memo export --format md` wrote (front matter with a \
                uid) comes back as it was exported: title, tags, times, pin and text. A folder stands for its \
                .md, .markdown and .txt files, in the order of the number their names start with. A file that \
                is not UTF-8 or is empty imports nothing (exit 65); a missing one, exit 66. A file imported \
                before (the same text, or the same uid) is not added again.
                """,
            ko: """
                메모 내용은 파일 그대로이고, 파일이 제목(# 제목, 또는 === 위의 제목)으로 시작하면 그것이 메모 \
                제목이 됨. `memo export --format md`가 쓴 파일(uid가 있는 앞머리)은 내보낸 그대로 돌아옴: 제목, \
                태그, 시각, 고정, 내용. 폴더는 그 안의 .md, .markdown, .txt 파일을 이름 앞 숫자 순서로 가져옴. \
                UTF-8이 아니거나 빈 파일이 있으면 아무것도 가져오지 않음 (종료 코드 65); 없는 파일은 66. 이미 \
                가져온 파일(같은 내용이나 같은 uid)은 다시 추가하지 않음.
                """),
        body: { context, arguments in try runMemoImport(context, arguments) })

    // MARK: - Bodies

    static func runTodoImport(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard let format = arguments[format] else { preconditionFailure("--from is required") }
        let bar = ProgressBar(context: context, label: context.text(en: "importing to-dos", ko: "할 일 가져오는 중"))
        // The import records its own undo step: into an empty home it logs
        // it as the emptying of the tables, not a row per to-do.
        let result = try bar.showing {
            try ToolImport.importTodos(from: arguments[todoFiles], format: format, dryRun: arguments[dryRun],
                                       undoDescription: context.undoDescription, into: context.workspace,
                                       progress: bar.update)
        }
        try report(result, noun: Noun(one: "to-do", many: "to-dos", korean: "할 일"), context)
    }

    static func runMemoImport(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let bar = ProgressBar(context: context, label: context.text(en: "importing memos", ko: "메모 가져오는 중"))
        let result = try bar.showing {
            try ToolImport.importMemos(from: arguments[memoFiles], dryRun: arguments[dryRun],
                                       undoDescription: context.undoDescription, into: context.workspace,
                                       progress: bar.update)
        }
        try report(result, noun: Noun(one: "memo", many: "memos", korean: "메모"), context)
    }

    // MARK: - Report

    /// What is counted, in both languages.
    struct Noun {
        let one: String
        let many: String
        let korean: String
    }

    /// Counts in words, or the wire format's document.
    static func report(_ result: ToolImport.Result, noun: Noun, _ context: CommandContext) throws {
        let outcome = result.outcome
        let kind = outcome.addedCount == 1 ? noun.one : noun.many
        var en = (result.isDryRun ? "Would add" : "Added") + " \(outcome.addedCount) \(kind); \(outcome.alreadyPresent) already present"
        var ko = "\(noun.korean) \(outcome.addedCount)개를 " + (result.isDryRun ? "추가할 수 있습니다" : "추가했습니다")
            + ". \(outcome.alreadyPresent)개는 이미 있습니다"
        if let skipped = result.skipped, skipped > 0 {
            en += "; \(skipped) skipped (deleted, or recurring templates)"
            ko += ". \(skipped)개는 건너뛰었습니다 (지운 것 또는 반복 원본)"
        }
        en += "."
        ko += "."
        if result.isDryRun {
            en += " Nothing was changed (--dry-run)."
            ko += " 아무것도 바꾸지 않았습니다 (--dry-run)."
        }
        try context.emit(json: WireFormat.toolImport(result), text: context.text(en: en, ko: ko))
    }
}
