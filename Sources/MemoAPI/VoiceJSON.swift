import MemoCore
import VoiceMemos

extension WireFormat {
    /// Everything about a voice memo. `file` is where its audio is stored
    /// (left out when nil); `updated_at` is when it last changed (its
    /// import, when never since).
    public static func voiceMemo(_ memo: VoiceMemo, file: String?) -> JSON {
        var members: [(String, JSON)] = [
            ("id", .int(memo.id)),
            ("uid", .uid(memo.uid)),
            ("rev", .int(memo.rev)),
            ("title", .string(memo.title)),
            ("original_name", .string(memo.originalName)),
            ("container", .string(memo.container)),
            ("encoding", .string(memo.encoding)),
            ("sample_rate", .int(memo.sampleRate)),
            ("channels", .int(memo.channels)),
            ("frames", .int(memo.frames)),
            ("duration", .double(memo.duration)),
            ("size", .int(memo.size)),
            ("peak_level", .double(memo.peakLevel)),
            ("peak_dbfs", memo.peakLevel > 0 ? .double((memo.peakDecibels * 10).rounded() / 10) : .null),
            ("checksum", .string(memo.checksum)),
            ("imported_at", .time(memo.importedAt)),
            ("updated_at", .time(memo.updatedAt ?? memo.importedAt)),
            ("tags", .strings(memo.tags)),
        ]
        if let file { members.insert(("file", .string(file)), at: 5) }
        return .object(members)
    }

    /// A voice memo through its store, which knows where its audio is: the
    /// command line's document, for the user on their own machine.
    public static func voiceMemo(_ memo: VoiceMemo, in store: VoiceStore) -> JSON {
        voiceMemo(memo, file: store.path(of: memo))
    }

    /// A voice memo as the HTTP API gives it: without `file`. The path is
    /// of no use to a client (`/api/v1/voice/{id}/audio` serves the sound)
    /// and tells anyone who reads an answer where the data home is and
    /// whose home folder holds it (`DocumentSchema`'s `VoiceMemo`).
    public static func voiceMemo(_ memo: VoiceMemo) -> JSON {
        voiceMemo(memo, file: nil)
    }
}

extension WireFormat {
    /// `voice verify`: `{"ok", "checked", "problems": [...]}`.
    public static func voiceVerification(_ problems: [VerificationProblem], checked: Int, in language: Language) -> JSON {
        .object([("ok", .bool(problems.isEmpty)), ("checked", .int(checked)),
                 ("problems", verificationProblems(problems, in: language))])
    }
}

extension WireFormat {
    /// One file of a `voice import` of several: `{"file", "imported": true,
    /// "memo"}` or `{"file", "imported": false, "error": {"code", "message"}}`.
    public static func voiceImport(file: String, memo: JSON) -> JSON {
        .object([("file", .string(file)), ("imported", .bool(true)), ("memo", memo)])
    }

    public static func voiceImport(file: String, errorCode: String, message: String) -> JSON {
        .object([("file", .string(file)), ("imported", .bool(false)),
                 ("error", ErrorEnvelope.error(code: errorCode, message: message))])
    }

    /// `voice export`: where the audio went, in what form, and whether it was
    /// converted (else copied byte for byte).
    public static func voiceExport(id: Int64, _ result: ExportResult) -> JSON {
        .object([
            ("id", .int(id)), ("destination", .string(result.destination)),
            ("container", .string(result.container)), ("encoding", .string(result.encoding)),
            ("size", .int(result.size)), ("converted", .bool(!result.isVerbatimCopy)),
        ])
    }

    /// `voice waveform --output`: the picture written and its size.
    public static func waveformPicture(id: Int64, output: String, width: Int, height: Int) -> JSON {
        .object([("id", .int(id)), ("output", .string(output)), ("width", .int(width)), ("height", .int(height))])
    }
}
