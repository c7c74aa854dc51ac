import MemoCore

extension VoiceStore {
    /// The frame `start` seconds into memo `id`, checked against the memo.
    /// - Throws: `.usage` for a time that is negative, not a number, or at
    ///   or past the memo's end (nothing would be left to play).
    public func playbackStart(id: Int64, seconds start: Double) throws -> (memo: VoiceMemo, frame: Int64) {
        let memo = try memo(id: id)
        guard let frame = AudioLimits.frame(atSeconds: start, sampleRate: memo.sampleRate), frame < memo.frames else {
            let shown = start.isFinite && start >= 0 ? TimeOffset.clock(start) : String(start)
            throw MemoError(.usage, en: "playback cannot start at \(shown): voice memo \(id) lasts \(TimeOffset.clock(memo.duration))",
                            ko: "\(shown)부터 재생할 수 없습니다: 음성 메모 \(id)의 길이는 \(TimeOffset.clock(memo.duration))입니다")
        }
        return (memo, frame)
    }

    /// Memo `id` from frame `first` to its end as 16-bit (or its own PCM
    /// depth) WAV, which every player reads, in a temporary file of the
    /// library folder (`voice/.play-….part`, locked while it exists, so a
    /// copy left by a killed player is a leftover the next writer removes).
    /// The caller plays it, then discards it.
    public func playableCopy(of memo: VoiceMemo, fromFrame first: Int64) throws -> TemporaryFile {
        try prepareDirectory()
        let copy = try TemporaryFile(in: directory, purpose: "play")
        do {
            let format = ExportFormat.wav.formatCode(from: memo.formatCode)
            try transcode(memo, to: copy.descriptor, format: format, span: first..<memo.frames)
        } catch {
            copy.discard()
            throw error
        }
        return copy
    }
}
