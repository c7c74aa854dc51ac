import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos

/// `memoapp backup DIR`: a consistent copy of the whole data home while
/// other memoapp processes may be writing (see `BackupWriter`).
enum BackupCommand {
    static let destination = Argument<String>("DIR", kind: .path,
                                              help: Localized(en: "a new or empty folder", ko: "새 폴더나 빈 폴더"))

    static func make() -> Command {
        Command(
            "backup",
            abstract: Localized(en: "copy the whole data home into DIR, consistently, while memoapp keeps running",
                                ko: "데이터 폴더 전체를 DIR에 일관되게 복사 (memoapp을 쓰는 중에도)"),
            positionals: [destination],
            discussion: Localized(
                en: """
                    DIR gets memoapp.db (one snapshot of the database: every change finished before the backup \
                    began is in it), voice/ (every voice memo's file, byte for byte) and MANIFEST (the XXH3-128 \
                    checksum of each file), written last. Check a backup any time: cd DIR && xxh128sum -c MANIFEST. \
                    Bring it back with 'memoapp restore DIR'. Exit status: 0 done; 1 done, but some voice memo's \
                    file was missing or changed (listed); 5 DIR is not a new or empty folder; 74 reading or \
                    writing failed (a full disk), and nothing was left in DIR.
                    """,
                ko: """
                    DIR에 memoapp.db(데이터베이스의 한 시점: 백업을 시작하기 전에 끝난 변경은 모두 들어 있음), voice/\
                    (모든 음성 메모 파일, 바이트 그대로), MANIFEST(파일마다 XXH3-128 체크섬, 마지막에 씀)를 만듭니다. \
                    언제든 확인하려면: cd DIR && xxh128sum -c MANIFEST. 되돌리려면 'memoapp restore DIR'. \
                    종료 코드: 0 완료; 1 완료했지만 어떤 음성 메모의 파일이 없거나 바뀌었음(목록 출력); \
                    5 DIR이 새 폴더나 빈 폴더가 아님; 74 읽기나 쓰기 실패(디스크 가득 참 등), DIR에는 아무것도 남지 않음.
                    """),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let writer = BackupWriter(workspace: context.workspace, destination: arguments[destination])
        let bar = ProgressBar(context: context, label: context.text(en: "backing up", ko: "백업하는 중"))
        let result = try bar.showing { try writer.write(progress: bar.update) }
        if !result.problems.isEmpty { context.exitStatus = 1 }
        try context.emit(json: WireFormat.backup(result, in: context.language), text: text(result, context))
    }

    private static func text(_ result: BackupResult, _ context: CommandContext) -> TerminalText {
        let total = ByteSize.text(result.databaseBytes + result.voiceBytes)
        let files = result.voiceFiles.count
        var lines: [TerminalText] = [
            TerminalText(context.text(en: "Backed up to \(result.path): \(BackupCommand.contents(result.contents, in: .en)) (\(files) audio file\(files == 1 ? "" : "s")); \(total) in all.",
                         ko: "\(result.path)에 백업했습니다: \(BackupCommand.contents(result.contents, in: .ko)) (오디오 파일 \(files)개), 모두 \(total).")),
            context.style.dim(context.text(en: "Check it any time: cd \(ShellText.quoted(result.path)) && xxh128sum -c MANIFEST",
                                           ko: "언제든 확인하려면: cd \(ShellText.quoted(result.path)) && xxh128sum -c MANIFEST")),
        ]
        if !result.problems.isEmpty {
            lines += result.problems.map { context.style.red("✗") + " " + context.text($0.message) }
            lines.append(TerminalText(context.text(
                en: "\(result.problems.count) voice memo(s) could not be backed up as recorded; run 'memoapp voice verify'.",
                ko: "음성 메모 \(result.problems.count)개를 기록대로 백업하지 못했습니다. 'memoapp voice verify'를 실행하세요.")))
        }
        return lines.joined(separator: "\n")
    }

    /// `3 to-dos, 1 memo, 0 voice memos, 2 timers`.
    static func contents(_ contents: BackupContents, in language: Language) -> String {
        func counted(_ count: Int, _ en: String, _ ko: String) -> String {
            language == .ko ? "\(ko) \(count)개" : "\(count) \(en)\(count == 1 ? "" : "s")"
        }
        return [counted(contents.todos, "to-do", "할 일"), counted(contents.memos, "memo", "메모"),
                counted(contents.voiceMemos, "voice memo", "음성 메모"), counted(contents.timers, "timer", "타이머")]
            .joined(separator: ", ")
    }
}
