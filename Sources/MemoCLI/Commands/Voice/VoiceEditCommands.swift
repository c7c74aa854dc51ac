import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Notes
import VoiceMemos

/// `voice export`, `voice trim`, `voice rename`, `voice edit`, `voice rm`, `voice verify`.
enum VoiceEditCommands {
    static func makeExport() -> Command {
        Command("export", abstract: Localized(en: "write a memo's audio to DEST, converting through libsndfile",
                                              ko: "메모의 오디오를 DEST로 내보내기 (libsndfile로 변환)"),
                options: [format, force],
                positionals: [VoiceCommand.id, destination],
                discussion: Localized(
                    en: "DEST '-' is standard output (name the format with --format; nothing else is printed). "
                        + "An existing DEST is replaced only with --force; DEST may not be in the data home, nor a "
                        + "folder, device or FIFO.",
                    ko: "DEST가 '-'이면 표준 출력입니다 (--format으로 형식을 지정; 다른 것은 출력하지 않음). 이미 있는 "
                        + "DEST는 --force가 있을 때만 바꿉니다. DEST는 데이터 폴더 안이나 폴더, 장치, FIFO일 수 없습니다."),
                body: runExport)
    }

    static func runExport(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        let output = try OutputFile.choose(arguments[destination], format: arguments[format]?.rawValue,
                                           among: audioFormats, home: context.home, mayReplace: arguments[force])
        guard let exportFormat = ExportFormat(rawValue: output.format.name) else {
            preconditionFailure("audioFormats are ExportFormat's cases")
        }
        let id = arguments[VoiceCommand.id]
        let store = try VoiceCommand.store(context)
        if output.isStandardOutput {
            // libsndfile seeks back into what it writes: a file in memory first.
            let scratch = try ScratchFile()
            _ = try CodecWarnings.silenced { realError in
                let bar = ProgressBar(context: context, label: context.text(en: "exporting", ko: "내보내는 중"),
                                      descriptor: realError)
                return try bar.showing {
                    try store.writeAudio(id: id, as: exportFormat, into: scratch.descriptor, shownPath: "-",
                                         progress: bar.update)
                }
            }
            return try context.write(contentsOf: scratch)
        }
        var written: ExportResult?
        try CodecWarnings.silenced { realError in
            let bar = ProgressBar(context: context, label: VoiceStoreName.base(output.given), descriptor: realError)
            try bar.showing {
                try output.write { written = try store.writeAudio(id: id, as: exportFormat, into: $0, shownPath: output.given,
                                                                  progress: bar.update) }
            }
        }
        guard let result = written else { preconditionFailure("a finished write has its result") }
        try context.emit(json: WireFormat.voiceExport(id: id, result), text: context.text(
            en: "Wrote \(line: result.destination) (\(result.container), \(result.encoding))",
            ko: "\(line: result.destination) 저장함 (\(result.container), \(result.encoding))"))
    }

    /// What `voice export` writes, as the output rules know formats.
    static let audioFormats = ExportFormat.allCases.map { OutputFormat($0.rawValue, fileExtensions: $0.fileExtensions) }

    static func makeTrim() -> Command {
        Command("trim", abstract: Localized(en: "keep only the span from --start to --end", ko: "--start부터 --end까지만 남기기"),
                options: [start, end, BulkConfirmation.yes],
                positionals: [VoiceCommand.id],
                discussion: Localized(en: "Without --start the span starts at the beginning; without --end it runs to the end.",
                                      ko: "--start가 없으면 처음부터, --end가 없으면 끝까지입니다."),
                body: { context, arguments in
                    guard arguments[start] != nil || arguments[end] != nil else {
                        throw UsageError(Localized(en: "give --start, --end or both", ko: "--start나 --end, 또는 둘 다 주세요"),
                                         path: arguments.path)
                    }
                    let store = try VoiceCommand.store(context)
                    let duration = try store.memo(id: arguments[VoiceCommand.id]).duration
                    let start = arguments[start] ?? 0
                    let end = arguments[end] ?? duration
                    if end > start { try BulkConfirmation.trimming(keeping: min(end, duration) - start, of: duration, context, arguments) }
                    let memo = try CodecWarnings.silenced { realError in
                        let bar = ProgressBar(context: context, label: context.text(en: "trimming", ko: "자르는 중"),
                                              descriptor: realError)
                        return try bar.showing {
                            try context.workspace.apply(TrimVoiceMemo(id: arguments[VoiceCommand.id], start: start, end: end),
                                                        origin: .cli, describedAs: context.undoDescription,
                                                        progress: bar.update)
                        }
                    }
                    try context.emit(json: VoiceCommand.json(memo, store: store),
                                 text: context.text(en: "Trimmed: ", ko: "잘랐습니다: ") + VoiceCommand.line(memo, context, idWidth: 0))
                })
    }

    static func makeRename() -> Command {
        Command("rename", abstract: Localized(en: "give a memo a new title", ko: "메모 제목 바꾸기"),
                positionals: [VoiceCommand.id, newTitle],
                body: { context, arguments in
                    let store = try VoiceCommand.store(context)
                    let memo = try context.apply(EditVoiceMemo(id: arguments[VoiceCommand.id], title: arguments[newTitle]))
                    try context.emit(json: VoiceCommand.json(memo, store: store),
                                 text: context.text(en: "Renamed: ", ko: "제목을 바꿨습니다: ") + VoiceCommand.line(memo, context, idWidth: 0))
                })
    }

    /// `voice edit ID [--title T] [--tag T] [--untag T]`: the options and
    /// their checks are `todo edit`'s (tags cleaned by the same rules).
    static func makeEdit() -> Command {
        Command("edit", abstract: Localized(en: "change a memo's title or tags", ko: "메모의 제목이나 태그 바꾸기"),
                options: [editedTitle, addedTags, NotesArguments.untags],
                positionals: [VoiceCommand.id],
                body: { context, arguments in
                    let tags = TagChanges(added: arguments[addedTags], removed: arguments[NotesArguments.untags])
                    guard arguments[editedTitle] != nil || !tags.isEmpty else {
                        throw UsageError(Localized(en: "nothing to change: give at least one option",
                                                   ko: "바꿀 것이 없습니다: 옵션을 하나 이상 주세요"), path: arguments.path)
                    }
                    let store = try VoiceCommand.store(context)
                    let memo = try context.parsingArgument(arguments) {
                        // Voice tags are cleaned by the note tags' rules first, so that
                        // `--untag '#work'` finds `work` as `todo edit` does.
                        let cleaned = try tags.cleaned(by: Tags.normalized(_:))
                        return try context.apply(EditVoiceMemo(id: arguments[VoiceCommand.id], title: arguments[editedTitle],
                                                               tags: cleaned))
                    }
                    try context.emit(json: VoiceCommand.json(memo, store: store),
                                 text: context.text(en: "Changed: ", ko: "고침: ") + VoiceCommand.line(memo, context, idWidth: 0))
                })
    }

    static func makeRemove() -> Command {
        Command("rm", abstract: Localized(en: "remove memos and their audio files", ko: "메모와 오디오 파일 지우기"),
                options: [BulkConfirmation.yes],
                positionals: [VoiceCommand.ids],
                body: { context, arguments in
                    try BulkConfirmation.removing(Set(arguments[VoiceCommand.ids]).count,
                                                  Localized(en: "voice memos", ko: "음성 메모"), context, arguments)
                    let store = try VoiceCommand.store(context)
                    let removed = try context.workspace.apply(RemoveVoiceMemos(ids: arguments[VoiceCommand.ids]), origin: .cli,
                                                              describedAs: context.undoDescription)
                    try context.emit(json: WireFormat.removed(removed.map { VoiceCommand.json($0, store: store) }),
                                 text: removed.map { memo in
                                     context.text(en: "Removed voice memo \(memo.id) “\(line: memo.title)”",
                                                  ko: "음성 메모 \(memo.id) “\(line: memo.title)” 지움")
                                 }.joined(separator: "\n"))
                })
    }

    static func makeVerify() -> Command {
        Command("verify", abstract: Localized(en: "check every stored file: present, decodable, unchanged; no strays",
                                              ko: "저장된 파일 검사: 존재, 디코딩, 체크섬, 남은 파일"),
                body: { context, _ in
                    let store = try VoiceCommand.store(context)
                    let problems = try CodecWarnings.silenced { realError in
                        let bar = ProgressBar(context: context, label: context.text(en: "verifying", ko: "검사하는 중"),
                                              descriptor: realError)
                        return try bar.showing {
                            try store.verify(progress: bar.update)
                        }
                    }
                    let checked = try store.memos().count
                    if !problems.isEmpty { context.exitStatus = 1 }
                    let text = problems.isEmpty
                        ? TerminalText(context.text(en: "All \(checked) voice memos are intact.",
                                                    ko: "음성 메모 \(checked)개 모두 이상 없습니다."))
                        : problems.map { context.style.red("✗") + " " + TerminalText(line: context.text($0.message)) }
                            .joined(separator: "\n")
                            + "\n" + context.text(en: "\(problems.count) problem(s) found.", ko: "문제 \(problems.count)개를 찾았습니다.")
                    try context.emit(json: WireFormat.voiceVerification(problems, checked: checked, in: context.language),
                                 text: text)
                })
    }

    // MARK: - Declarations

    static let format = OptionKey<ExportFormat>("format", "wav|flac|ogg|mp3",
                                                help: Localized(en: "format (default: from DEST's extension; must match it)",
                                                                ko: "형식 (기본: DEST의 확장자; 확장자와 맞아야 함)"))
    static let force = Flag("force", help: Localized(en: "replace an existing DEST", ko: "이미 있는 DEST를 바꿈"))
    static let destination = Argument<String>("DEST", kind: .path, help: Localized(en: "file to write", ko: "저장할 파일"))
    static let start = time("start", Localized(en: "start, in seconds or m:ss", ko: "시작 (초 또는 m:ss)"))
    static let end = time("end", Localized(en: "end, in seconds or m:ss", ko: "끝 (초 또는 m:ss)"))
    static let newTitle = Argument<String>("TITLE", help: Localized(en: "the new title", ko: "새 제목"))
    static let editedTitle = OptionKey<String>("title", "T", help: Localized(en: "new title", ko: "새 제목"))
    static let addedTags = NotesArguments.tags(Localized(en: "add a tag (repeatable)", ko: "태그 추가 (여러 번 가능)"))

    /// A --start or --end value in seconds: `75`, `12.5`, `1:15`.
    private static func time(_ name: String, _ help: Localized) -> OptionKey<Double> {
        OptionKey(name, "T", help: help) { text in
            guard let seconds = TimeOffset.seconds(from: text) else {
                throw MemoError(.usage, en: "invalid --\(name) '\(text)': expected seconds or m:ss",
                                ko: "--\(name) '\(text)'이 올바르지 않습니다: 초 또는 m:ss여야 합니다")
            }
            return seconds
        }
    }
}
