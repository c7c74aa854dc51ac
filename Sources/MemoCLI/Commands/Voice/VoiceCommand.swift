#if canImport(Glibc)
import Glibc
#endif
import MemoAPI
import CommandLineKit
import MemoCore
import VoiceMemos

/// `memoapp voice …`: voice memos (the VoiceMemos module) from the command line.
enum VoiceCommand {
    static func make() -> Command {
        Command(
            "voice",
            abstract: Localized(en: "voice memos: import, record, list, peaks, export, trim, verify",
                                ko: "음성 메모: 가져오기, 녹음, 목록, 파형, 내보내기, 자르기, 검사"),
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
    static let tags = RepeatedOptionKey<String>("tag", "T", help: Localized(en: "a tag (repeatable)",
                                                                           ko: "태그 (여러 번 가능)"))

    /// Everything about a memo, in the wire format.
    static func json(_ memo: VoiceMemo, store: VoiceStore) -> JSON {
        WireFormat.voiceMemo(memo, in: store)
    }

    /// One line for lists: id, title, duration, format, size, date. The id
    /// is right-aligned in `idWidth` columns (0: as it is, in a sentence).
    static func line(_ memo: VoiceMemo, _ context: CommandContext, idWidth: Int = 4) -> TerminalText {
        let id = context.style.dim(pad("\(memo.id)", idWidth, right: true))
        return "\(id)  \(line: memo.title)  \(TimeOffset.clock(memo.duration))  \(line: memo.container)  "
            + "\(byteCount(memo.size))  \(memo.importedAt.localMinute)"
    }

    /// Sizes for people: 812 B, 31.3 KB, 318.0 MB.
    static func byteCount(_ bytes: Int64) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        var value = Double(bytes) / 1024
        for unit in ["KB", "MB", "GB"] {
            if value < 1024 || unit == "GB" { return "\((value * 10).rounded() / 10) \(unit)" }
            value /= 1024
        }
        return "\(bytes) B"
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
