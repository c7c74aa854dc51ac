import CommandLineKit
import MemoAPI
#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import VoiceMemos

/// `memoapp voice import FILE…`: each file judged alone; with several, a
/// report of which went in and which did not, and the worst exit code.
enum VoiceImportCommand {
    static let title = OptionKey<String>("title", "T", help: Localized(en: "title (default: the file's TITLE tag, else its name)",
                                                                      ko: "제목 (기본: 파일의 TITLE 태그, 없으면 파일 이름)"))
    static let allowDuplicate = Flag("allow-duplicate", help: Localized(en: "store bytes another memo already holds",
                                                                        ko: "이미 있는 오디오도 다시 저장"))
    static let files = Arguments<String>("FILE", kind: .path, help: Localized(en: "audio files", ko: "오디오 파일"))

    static func make() -> Command {
        Command(
            "import",
            abstract: Localized(en: "import audio files (whatever libsndfile reads, and AAC or ALAC in M4A, MP4, CAF)",
                                ko: "오디오 파일 가져오기 (libsndfile이 읽는 형식, M4A·MP4·CAF의 AAC·ALAC)"),
            options: [title, VoiceCommand.tags, allowDuplicate],
            positionals: [files],
            discussion: Localized(
                en: "AAC and ALAC (what phones record, in .m4a, .mp4 or .caf) are read through FFmpeg's libraries; "
                    + "a trim of them is stored as FLAC",
                ko: "AAC·ALAC(휴대폰이 녹음하는 .m4a, .mp4, .caf)는 FFmpeg 라이브러리로 읽습니다. "
                    + "자른 결과는 FLAC으로 저장합니다"),
            body: run)
    }

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let store = try VoiceCommand.store(context)
        let options = ImportOptions(title: arguments[title], tags: arguments[VoiceCommand.tags],
                                    allowDuplicate: arguments[allowDuplicate])
        let files = arguments[files]
        if files.count == 1 {
            // One file: an ordinary command, whose failure is the command's.
            let memo = try importOne(files[0], store: store, options: options, context: context)
            try context.emit(json: VoiceCommand.json(memo, store: store),
                         text: context.text(en: "Imported voice memo ", ko: "음성 메모 가져옴: ")
                            + VoiceCommand.line(memo, context, idWidth: 0))
            return
        }
        var results: [JSON] = []
        var lines: [TerminalText] = []
        var worst: ErrorKind?
        var imported = 0
        for file in files {
            do {
                let memo = try importOne(file, store: store, options: options, context: context)
                results.append(WireFormat.voiceImport(file: file, memo: VoiceCommand.json(memo, store: store)))
                lines.append(context.style.green("✓") + " \(line: file) → " + VoiceCommand.line(memo, context))
                imported += 1
            } catch {
                let (kind, message) = describe(error, context)
                if worst.map({ ErrorReport.exitCode(for: kind) > ErrorReport.exitCode(for: $0) }) ?? true { worst = kind }
                results.append(WireFormat.voiceImport(file: file, errorCode: kind.code, message: message))
                lines.append(context.style.red("✗") + " " + TerminalText(line: message))
            }
        }
        lines.append(TerminalText(context.text(en: "\(imported) of \(files.count) imported",
                                               ko: "\(files.count)개 중 \(imported)개 가져옴")))
        try context.emit(json: .array(results), text: lines.joined(separator: "\n"))
        if let worst { context.exitStatus = ErrorReport.exitCode(for: worst) }
    }

    private static func importOne(_ file: String, store: VoiceStore, options: ImportOptions,
                                  context: CommandContext) throws -> VoiceMemo {
        try CodecWarnings.silenced { realError in
            let bar = ProgressBar(context: context, label: VoiceStoreName.base(file), descriptor: realError)
            return try bar.showing {
                try store.importFile(at: file, options: options) { done, total in bar.update(done, of: total) }
            }
        }
    }

    private static func describe(_ error: Error, _ context: CommandContext) -> (ErrorKind, String) {
        if let error = error as? MemoError { return (error.kind, context.text(error.message)) }
        let report = ErrorReport(error, language: context.language)
        return (report.kind, report.message)
    }
}

/// File names for labels.
enum VoiceStoreName {
    static func base(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
