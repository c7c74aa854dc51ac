#if canImport(Glibc)
import Glibc
#endif
import MemoAPI
import CommandLineKit
import MemoCore
import Notes
import VoiceMemos

/// `memoapp voice …`: voice memos (the VoiceMemos module) from the command line.
enum VoiceCommand {
    static func make() -> Command {
        Command(
            "voice",
            abstract: Localized(en: "voice memos: import, record, list, play, peaks, export, trim, verify",
                                ko: "음성 메모: 가져오기, 녹음, 목록, 재생, 파형, 내보내기, 자르기, 검사"),
            // Bare `voice` lists, as bare `todo` and `memo` do.
            options: [VoiceViewCommands.onlyTag, NotesArguments.limit],
            subcommands: [
                .later("import", VoiceImportCommand.make),
                .later("record", VoiceRecordCommand.make),
                .later("list", VoiceViewCommands.makeList),
                .later("show", VoiceViewCommands.makeShow),
                .later("peaks", VoiceViewCommands.makePeaks),
                .later("waveform", VoiceViewCommands.makeWaveform),
                .later("export", VoiceEditCommands.makeExport),
                .later("trim", VoiceEditCommands.makeTrim),
                .later("rename", VoiceEditCommands.makeRename),
                .later("edit", VoiceEditCommands.makeEdit),
                .later("play", VoicePlayCommand.make),
                .later("rm", VoiceEditCommands.makeRemove),
                .later("verify", VoiceEditCommands.makeVerify),
            ],
            body: VoiceViewCommands.runList)
    }

    // MARK: - Shared by the voice commands

    static func store(_ context: CommandContext) throws -> VoiceStore {
        try context.workspace.voiceStore()
    }

    static let id = Argument<Int64>("ID", range: 1...Int.max, help: Localized(en: "voice memo id", ko: "음성 메모 id"))
    static let ids = IDArguments("ID", range: 1...Int64.max,
                                 help: Localized(en: "voice memo ids, lists and ranges (1-3,5)", ko: "음성 메모 id, 목록과 범위 (1-3,5)"))
    static let tags = NotesArguments.tags(Localized(en: "a tag (repeatable)", ko: "태그 (여러 번 가능)"))

    /// Everything about a memo, in the wire format.
    static func json(_ memo: VoiceMemo, store: VoiceStore) -> JSON {
        WireFormat.voiceMemo(memo, in: store)
    }

    /// One line for a sentence ("Imported: …"): id, title, duration, format,
    /// size, date. The id is right-aligned in `idWidth` columns (0: as it is).
    static func line(_ memo: VoiceMemo, _ context: CommandContext, idWidth: Int = 4) -> TerminalText {
        let id = context.style.dim(pad("\(memo.id)", idWidth, right: true))
        return "\(id)  \(line: memo.title)  \(duration(memo))  \(line: memo.container)  "
            + "\(ByteSize.text(memo.size))  \(memo.importedAt.localMinute)"
    }

    /// `0:04.7`: tenths, so that a short memo is not shown as `0:04`.
    static func duration(_ memo: VoiceMemo) -> String {
        TimerRendering.clock(memo.duration, tenths: true)
    }

    /// The table of `voice list`. Its rows are all read already, so every
    /// column is as wide as its widest value; the title takes the rest.
    static func table(_ memos: [VoiceMemo], _ context: CommandContext) -> TerminalText {
        let dates = RelativeDate(now: context.clock.now(), calendar: context.calendar, language: context.language)
        let rows = memos.map { memo -> [TerminalText] in
            [TerminalText(String(memo.id)), TerminalText(duration(memo)), TerminalText(ByteSize.text(memo.size)),
             TerminalText(line: memo.container), context.style.dim(dates.past(memo.importedAt)),
             TerminalText(line: memo.title) + (memo.tags.isEmpty ? "" : "  " + context.style.cyan(
                TerminalText(line: NotesText.tags(memo.tags))))]
        }
        func widest(_ column: Int) -> Int { rows.map { $0[column].displayWidth }.max() ?? 0 }
        let label = { (en: String, ko: String) in context.text(en: en, ko: ko) }
        let table = TextTable([
            .init("ID", width: widest(0), alignment: .right),
            .init(label("LENGTH", "길이"), width: widest(1), alignment: .right),
            .init(label("SIZE", "크기"), width: widest(2), alignment: .right),
            .init(label("FORMAT", "형식"), width: widest(3), isOptional: true),
            .init(label("IMPORTED", "가져옴"), width: widest(4), isOptional: true),
            .init(label("TITLE", "제목"), width: 8),
        ], totalWidth: context.tableWidth, style: context.style)
        return ([table.header] + rows.map(table.row)).joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
