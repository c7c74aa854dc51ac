import MemoCore
import MemoKit

extension WireFormat {
    /// `todo import` / `memo import`: `{"added", "already_present", "skipped"
    /// (Taskwarrior only), "ids", "dry_run"}`.
    public static func toolImport(_ result: ToolImport.Result) -> JSON {
        var members: [(String, JSON)] = [("added", .int(result.outcome.addedCount)),
                                         ("already_present", .int(result.outcome.alreadyPresent))]
        if let skipped = result.skipped { members.append(("skipped", .int(skipped))) }
        members.append(("ids", .array(result.outcome.addedIDs.map { .int($0) })))
        members.append(("dry_run", .bool(result.isDryRun)))
        return .object(members)
    }
}

extension WireFormat {
    /// `memo export --format md DIR`: `{"folder", "files", "count"}`.
    public static func memoExport(_ result: MemoMarkdownExport.Result) -> JSON {
        .object([("folder", .string(result.folder)), ("files", .strings(result.fileNames)),
                 ("count", .int(result.fileNames.count))])
    }
}

extension WireFormat {
    /// `import` of an export document: `{"restored", "todos": {"added",
    /// "already_present"}, "memos": {…}, "voice_memos": {…, "audio_missing",
    /// "audio_missing_titles"}, "timers": {…}}`.
    public static func documentImport(_ report: DocumentImportReport) -> JSON {
        func counts(_ counts: DocumentImportReport.Counts) -> [(String, JSON)] {
            [("added", .int(counts.added)), ("already_present", .int(counts.alreadyPresent))]
        }
        let missing = report.voiceMemosWithoutAudio
        return .object([
            ("restored", .bool(report.isRestore)),
            ("todos", .object(counts(report.todos))),
            ("memos", .object(counts(report.memos))),
            ("voice_memos", .object(counts(report.voiceMemos) + [
                ("audio_missing", .int(missing.count)), ("audio_missing_titles", .strings(missing)),
            ])),
            ("timers", .object(counts(report.timers))),
        ])
    }
}
