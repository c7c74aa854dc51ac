import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import VoiceMemos
#if canImport(Glibc)
import Glibc
#endif

/// `memoapp import FILE [--audio DIR]`: reads an export (see `ImportDocument`)
/// and writes it all or nothing (see `ImportWriter`), audio included (see
/// `VoiceAudioImport`).
enum ImportCommand {
    static let audioFolders = RepeatedOptionKey<String>("audio", "DIR", kind: .path,
                                                        help: Localized(en: "a folder to look in for voice memo audio (repeatable)",
                                                                        ko: "음성 메모 오디오를 찾을 폴더 (여러 번 가능)"))
    static let file = Argument<String>("FILE", kind: .path, help: Localized(en: "the export ('-' for standard input)",
                                                                          ko: "내보낸 파일 ('-'는 표준 입력)"))

    static func make() -> Command {
        Command(
            "import",
            abstract: Localized(en: "read an export: restore it into an empty data home, or add what is new",
                                ko: "내보낸 파일 읽기: 빈 데이터 폴더에는 그대로 복원, 아니면 새 항목만 추가"),
            options: [audioFolders],
            positionals: [file],
            discussion: Localized(
                en: "Into an empty data home (no to-do, memo, voice memo or timer) the export is restored exactly: "
                    + "ids, uids and the onboarding state are kept. Otherwise items whose uid is not here yet are "
                    + "added with new ids, so importing the same file twice adds nothing. A malformed file changes "
                    + "nothing (exit 65, naming the line or the JSON path). Voice memo audio is looked for, by "
                    + "checksum, in each --audio DIR, then in this data home's voice/ folder, then in a voice/ "
                    + "folder beside FILE; a voice memo whose audio is not found is skipped and named. Exit status: "
                    + "0 everything was imported or already present; 1 the rest was imported but some voice memo "
                    + "was skipped (the report is printed, --json too); 65 a malformed file, 66 no such file: "
                    + "nothing imported.",
                ko: "빈 데이터 폴더(할 일, 메모, 음성 메모, 타이머가 없음)에는 그대로 복원합니다: id, uid, 온보딩 상태가 "
                    + "유지됩니다. 그렇지 않으면 아직 없는 uid의 항목만 새 id로 추가하므로, 같은 파일을 두 번 가져와도 두 번째에는 "
                    + "아무것도 추가되지 않습니다. 형식이 잘못된 파일은 아무것도 바꾸지 않습니다 (종료 코드 65, 줄 또는 JSON 경로 "
                    + "표시). 음성 메모 오디오는 체크섬으로 각 --audio DIR, 이 데이터 폴더의 voice/, FILE 옆의 voice/ 순서로 "
                    + "찾으며, 오디오를 찾지 못한 음성 메모는 건너뛰고 제목을 알려 줍니다. 종료 코드: 0 모두 가져왔거나 이미 "
                    + "있음; 1 나머지는 가져왔지만 건너뛴 음성 메모가 있음 (보고는 출력, --json도); 65 형식이 잘못된 파일, "
                    + "66 파일이 없음: 아무것도 가져오지 않음."),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let path = arguments[file]
        var importer = try DocumentImport(workspace: context.workspace, audioFolders: arguments[audioFolders])
        importer.undoDescription = context.undoDescription
        let bar = ProgressBar(context: context, label: context.text(en: "importing", ko: "가져오는 중"))
        importer.progress = bar.update
        let isStandardInput = path == "-"
        let report: DocumentImportReport
        if isStandardInput {
            // Standard input cannot be read twice: it is held, the file is not.
            let bytes = try context.readAllInput()
            report = try bar.showing { try importer.run(.bytes(bytes), name: context.text(en: "standard input", ko: "표준 입력")) }
        } else {
            let file = try InputFile.open(path)
            defer { close(file.descriptor) }
            report = try bar.showing {
                try importer.run(.file(descriptor: file.descriptor, path: path), name: path, besideFile: path)
            }
        }
        try emit(report, context)
    }

    // MARK: - Private

    private static func emit(_ report: DocumentImportReport, _ context: CommandContext) throws {
        let missing = report.voiceMemosWithoutAudio
        if !missing.isEmpty {
            let titles = missing.map { "“\($0)”" }.joined(separator: ", ")
            try context.warn(context.text(
                en: "\(missing.count) voice memo\(missing.count == 1 ? "" : "s") skipped, audio not found: \(titles) "
                    + "(name a folder that holds it with --audio DIR and import again)",
                ko: "음성 메모 \(missing.count)개를 건너뛰었습니다. 오디오를 찾지 못했습니다: \(titles) "
                    + "(오디오가 있는 폴더를 --audio DIR로 지정해 다시 가져오세요)"))
        }
        let json = WireFormat.documentImport(report)
        let rows: [(Localized, DocumentImportReport.Counts, Int)] = [
            (Localized(en: "to-dos", ko: "할 일"), report.todos, 0),
            (Localized(en: "memos", ko: "메모"), report.memos, 0),
            (Localized(en: "voice memos", ko: "음성 메모"), report.voiceMemos, missing.count),
            (Localized(en: "timers", ko: "타이머"), report.timers, 0),
        ]
        var lines = [report.isRestore
            ? context.text(en: "Restored into an empty data home (ids kept):", ko: "빈 데이터 폴더에 복원했습니다 (id 유지):")
            : context.text(en: "Imported (new items get new ids):", ko: "가져왔습니다 (새 항목은 새 id):")]
        for (name, counts, skipped) in rows {
            var line = "  " + context.text(name) + ": "
                + context.text(en: "\(counts.added) added, \(counts.alreadyPresent) already present",
                               ko: "\(counts.added)개 추가, \(counts.alreadyPresent)개 이미 있음")
            if skipped > 0 {
                line += context.text(en: ", \(skipped) skipped (audio not found)", ko: ", \(skipped)개 건너뜀 (오디오 없음)")
            }
            lines.append(line)
        }
        try context.emit(json: json, text: lines.joined(separator: "\n"))
        // Finished, but something was left out: 1, as backup does, so a
        // script can trust 0 to mean that everything is here.
        if !missing.isEmpty { context.exitStatus = 1 }
    }
}
