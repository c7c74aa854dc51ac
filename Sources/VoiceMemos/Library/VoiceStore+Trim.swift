#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

extension VoiceStore {
    /// Keeps only the span [start, end) seconds of memo `id`. The span is
    /// re-encoded into a new file in the memo's own format, or as FLAC when
    /// libsndfile cannot write that format (AAC, anything in MP4: FFmpeg
    /// could encode AAC again, but a second lossy encoding loses more of a
    /// voice each trim, and FLAC keeps the decoded samples exactly); then one
    /// transaction replaces the memo's metadata and peaks and renames the new
    /// file into place; the old file is removed after the commit (the
    /// caller's, when the trim runs inside its transaction).
    /// - Parameter progress: called now and then with the frames re-encoded
    ///   and the frames the span holds.
    /// - Throws: `.usage` for an empty span or one outside the audio.
    public func trim(id: Int64, start: Double, end: Double,
                     progress: ((Int64, Int64) -> Void)? = nil) throws -> VoiceMemo {
        let memo = try memo(id: id)
        guard start.isFinite, end.isFinite, start >= 0, end > start else {
            throw MemoError(.usage, en: "the span must start at 0 or later and end after it starts",
                            ko: "구간은 0 이상에서 시작해 시작보다 뒤에서 끝나야 합니다")
        }
        // Any time may come in; only a frame the memo has may go on.
        guard let first = AudioLimits.frame(atSeconds: start, sampleRate: memo.sampleRate),
              let last = AudioLimits.frame(atSeconds: end, sampleRate: memo.sampleRate),
              first < memo.frames, last <= memo.frames, last > first else {
            throw MemoError(.usage,
                            en: "the span \(start)–\(end) s is outside voice memo \(id), which lasts \(memo.duration) s",
                            ko: "구간 \(start)–\(end)초가 음성 메모 \(id)의 길이(\(memo.duration)초)를 벗어납니다")
        }
        try removeLeftovers()
        let output = try TemporaryFile(in: directory, purpose: "trim")
        var finalName: String?
        // Once committed, the new file is the memo's: a failure after that
        // (removing the replaced file) must not take it away.
        var isCommitted = false
        do {
            let format = AudioFormat.isFFmpegOnly(memo.formatCode)
                ? ExportFormat.flac.formatCode(from: memo.formatCode) : memo.formatCode
            try transcode(memo, to: output.descriptor, format: format, span: first..<last, progress: progress)
            let audio = try AudioScanner.scan(try FileByteSource(path: output.path, followsSymbolicLinks: false), name: memo.title)
            try output.sync()
            try connection.writeTransaction {
                // Another process may have changed the memo meanwhile.
                let current = try connection.queryFirst("SELECT checksum FROM voice_memos WHERE id = ?", id) { $0.string(0) }
                guard current == memo.checksum else {
                    throw MemoError(.invalidState, en: "voice memo \(id) changed while it was being trimmed; try again",
                                    ko: "자르는 동안 음성 메모 \(id)이(가) 바뀌었습니다. 다시 시도하세요")
                }
                try connection.execute("""
                    UPDATE voice_memos SET container = ?, encoding = ?, format_code = ?, sample_rate = ?, channels = ?,
                        frames = ?, duration = ?, size = ?, peak_level = ?, checksum = ?, updated_at = ?
                    WHERE id = ?
                    """, audio.container, audio.encoding, audio.formatCode, audio.sampleRate, audio.channels,
                    audio.frames, audio.duration, audio.size, audio.peakLevel, audio.checksum,
                    clock.now().secondsSince1970, id)
                try storePeaks(audio.peaks, memoID: id)
                let name = try moveIntoPlace(output, id: id, audio: audio)
                finalName = name
                try connection.execute("UPDATE voice_memos SET file_name = ? WHERE id = ?", name, id)
                // The replaced file goes once the memo no longer names it: after
                // the commit of the caller's transaction, when there is one.
                try connection.afterCommit { isCommitted = true }
                if name != memo.fileName {
                    let replaced = path(of: memo)
                    try connection.afterCommit { [directory] in
                        try FileSystem.removeFile(replaced)
                        try FileSystem.fsyncDirectory(directory)
                    }
                }
            }
        } catch {
            if isCommitted { throw error }
            if let finalName, finalName != memo.fileName {
                unlink(directory + "/" + finalName)
                try? FileSystem.fsyncDirectory(directory)
            } else if finalName == nil {
                output.discard()
            }
            throw error
        }
        output.closeDescriptor()
        return try self.memo(id: id)
    }
}
