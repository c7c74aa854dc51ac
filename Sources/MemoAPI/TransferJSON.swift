import MemoCore
import MemoKit
import VoiceMemos

extension WireFormat {
    /// What a backup or a restore holds: `"todos", "memos", "voice_memos",
    /// "timers", "onboarded"`, as members of the result's object.
    static func contents(_ contents: BackupContents) -> [(String, JSON)] {
        [("todos", .int(contents.todos)), ("memos", .int(contents.memos)), ("voice_memos", .int(contents.voiceMemos)),
         ("timers", .int(contents.timers)), ("onboarded", .bool(contents.isOnboarded))]
    }

    /// `backup`: where it went, what it holds, its size, and each voice memo
    /// whose file could not be copied as recorded.
    public static func backup(_ result: BackupResult, in language: Language) -> JSON {
        .object([
            ("path", .string(result.path)),
            ("ok", .bool(result.problems.isEmpty)),
        ] + contents(result.contents) + [
            ("database_bytes", .int(result.databaseBytes)),
            ("voice_files", .int(result.voiceFiles.count)),
            ("voice_bytes", .int(result.voiceBytes)),
            ("bytes", .int(result.databaseBytes + result.voiceBytes)),
            ("problems", verificationProblems(result.problems, in: language)),
        ])
    }

    /// `restore`: into which home, from where, whether data was replaced,
    /// what the home holds now (null counts when a problem after the restore
    /// kept them from being counted), the audio files of the replaced data
    /// removed, and that problem (`{"code", "message"}`, else null).
    public static func restore(_ result: RestoreResult, in language: Language) -> JSON {
        let counts = result.contents.map(contents)
            ?? ["todos", "memos", "voice_memos", "timers", "onboarded"].map { ($0, JSON.null) }
        return .object([
            ("home", .string(result.home)),
            ("from", .string(result.backup.path)),
            ("replaced", .bool(result.replacedData)),
        ] + counts + [
            ("database_bytes", .int(result.backup.databaseBytes)),
            ("voice_files", .int(result.backup.manifest.voiceFiles.count)),
            ("voice_bytes", .int(result.backup.voiceBytes)),
            ("bytes", .int(result.backup.databaseBytes + result.backup.voiceBytes)),
            ("removed_files", .strings(result.removedFiles)),
            ("access", result.access.map(restoredAccess) ?? .null),
            ("problem", result.problem.map {
                .object([("code", .string($0.kind.code)), ("message", .string($0.message.text(in: language)))])
            } ?? .null),
        ])
    }

    /// What a restore did with the server's credentials: `{"kept": "backup"
    /// | "home" | "neither", "tokens", "sessions"}` (what the home holds
    /// now) and `"not_restored_tokens"`, `"not_restored_sessions"` (the
    /// backup's left out).
    public static func restoredAccess(_ access: RestoredAccess) -> JSON {
        let (kept, tokens, sessions, droppedTokens, droppedSessions): (String, Int, Int, Int, Int)
        switch access {
        case let .fromBackup(t, s): (kept, tokens, sessions, droppedTokens, droppedSessions) = ("backup", t, s, 0, 0)
        case let .keptHome(t, s, bt, bs): (kept, tokens, sessions, droppedTokens, droppedSessions) = ("home", t, s, bt, bs)
        case let .neither(bt, bs): (kept, tokens, sessions, droppedTokens, droppedSessions) = ("neither", 0, 0, bt, bs)
        }
        return .object([("kept", .string(kept)), ("tokens", .int(Int64(tokens))), ("sessions", .int(Int64(sessions))),
                        ("not_restored_tokens", .int(Int64(droppedTokens))),
                        ("not_restored_sessions", .int(Int64(droppedSessions)))])
    }

    /// `export -o FILE`'s summary: the file, its size and how many items of each kind.
    public static func exportSummary(output: String, bytes: Int, counts: ExportCounts) -> JSON {
        .object([("output", .string(output)), ("bytes", .int(bytes)), ("todos", .int(counts.todos)),
                 ("memos", .int(counts.memos)), ("voice_memos", .int(counts.voiceMemos)), ("timers", .int(counts.timers))])
    }

    /// A voice memo whose file is missing, damaged or changed, or a file no
    /// memo names: `{"kind", "memo_id", "file", "message"}`.
    public static func verificationProblems(_ problems: [VerificationProblem], in language: Language) -> JSON {
        .array(problems.map { problem in
            .object([("kind", .string(problem.kind.rawValue)),
                     ("memo_id", problem.memoID.map { .int($0) } ?? .null),
                     ("file", .string(problem.fileName)),
                     ("message", .string(problem.message.text(in: language)))])
        })
    }
}
