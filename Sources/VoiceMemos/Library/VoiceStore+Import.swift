#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

extension VoiceStore {
    /// Imports the audio file at `path` in one streaming pass (decode, peaks,
    /// checksum and copy; see `AudioScanner`), then stores it (see the type's
    /// documentation for the order of file and row).
    ///
    /// - Throws: `.noInput` for a missing or unreadable path; `.badInput` for
    ///   anything libsndfile does not decode in full; `.duplicate` when a memo
    ///   already holds these bytes and `options.allowDuplicate` is false, or
    ///   when a memo already has `options.uid`; `.badInput` for a uid not in
    ///   UUID form. Nothing is stored when it throws.
    public func importFile(at path: String, options: ImportOptions = ImportOptions(),
                           progress: ((Int64, Int64) -> Void)? = nil) throws -> VoiceMemo {
        let title = try options.title.map(VoiceStore.validTitle)
        let tags = try Tags.normalized(options.tags)
        let uid = try UUID4.uid(options.uid)
        let source = try FileByteSource(path: path)
        let name = options.originalName ?? path
        try prepareDirectory()
        try removeLeftovers()
        let copy = try TemporaryFile(in: directory, purpose: "import")
        let audio: ScannedAudio
        do {
            audio = try AudioScanner.scan(source, name: VoiceStore.baseName(name), copyTo: copy.descriptor,
                                          progress: progress)
        } catch {
            copy.discard()
            throw error
        }
        return try insert(copy, audio: audio, title: title ?? audio.titleTag ?? VoiceStore.defaultTitle(name),
                          originalName: VoiceStore.baseName(name), tags: tags,
                          allowDuplicate: options.allowDuplicate, uid: uid)
    }

    /// Imports audio already written in full to `file`, a temporary in this
    /// library's folder (an HTTP upload, spooled there as it came off the
    /// socket): the same one-pass scan as `importFile`, but the file itself
    /// becomes the memo's, renamed into place, instead of being copied, so
    /// the audio is written once. Takes `file` over: it is the memo's file
    /// or, when this throws, removed. Throws as `importFile` does.
    ///
    /// `scanned` is `AudioScanner`'s scan of `file`'s bytes when the caller
    /// made it already, while the bytes were arriving (the scan that wrote
    /// `file`, copying to it); without it the file is scanned here.
    public func importWritten(_ file: TemporaryFile, options: ImportOptions = ImportOptions(),
                              scanned: ScannedAudio? = nil) throws -> VoiceMemo {
        let audio: ScannedAudio
        let title: String?
        let tags: [String]
        let uid: String
        let name = options.originalName ?? file.name
        do {
            guard file.path == directory + "/" + file.name else {
                throw MemoError(.internalFailure, en: "\(file.path) is not in the voice library folder \(directory)",
                                ko: "\(file.path)이(가) 음성 라이브러리 폴더 \(directory)에 없습니다")
            }
            title = try options.title.map(VoiceStore.validTitle)
            tags = try Tags.normalized(options.tags)
            uid = try UUID4.uid(options.uid)
            // As `importFile` does; `file` is locked, so the sweep passes it by.
            try removeLeftovers()
            if let scanned {
                audio = scanned
            } else {
                let source = try FileByteSource(path: file.path, followsSymbolicLinks: false)
                audio = try AudioScanner.scan(source, name: VoiceStore.baseName(name), copyTo: nil)
            }
        } catch {
            file.discard()
            throw error
        }
        return try insert(file, audio: audio, title: title ?? audio.titleTag ?? VoiceStore.defaultTitle(name),
                          originalName: VoiceStore.baseName(name), tags: tags,
                          allowDuplicate: options.allowDuplicate, uid: uid)
    }

    /// Stores a finished temporary file as a new memo: fsync, then one
    /// transaction that checks for a duplicate, inserts the row, its peaks and
    /// tags, and renames the file into place before the commit. On any
    /// failure neither the row nor the file remains.
    func insert(_ file: TemporaryFile, audio: ScannedAudio, title: String, originalName: String,
                tags: [String], allowDuplicate: Bool, uid: String = UUID4.random()) throws -> VoiceMemo {
        var finalName: String?
        do {
            try file.sync()
            let id: Int64 = try connection.writeTransaction {
                if !allowDuplicate, let holder = try memoHolding(checksum: audio.checksum) {
                    throw MemoError(.duplicate, hint: .allowDuplicate,
                                    en: "\(originalName): the same audio is already voice memo \(holder.id) “\(holder.title)”",
                                    ko: "\(originalName): 같은 오디오가 이미 음성 메모 \(holder.id) “\(holder.title)”에 있습니다")
                }
                do {
                    try connection.execute("""
                        INSERT INTO voice_memos (uid, title, original_name, file_name, container, encoding,
                            format_code, sample_rate, channels, frames, duration, size, peak_level, checksum,
                            imported_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, uid, title, originalName, file.name, audio.container, audio.encoding,
                        audio.formatCode, audio.sampleRate, audio.channels, audio.frames, audio.duration,
                        audio.size, audio.peakLevel, audio.checksum, clock.now().secondsSince1970)
                } catch let error as SQLiteError where error.isUniqueViolation(table: "voice_memos", column: "uid") {
                    throw VoiceStore.duplicateUID(uid)
                }
                let id = connection.lastInsertRowID
                try storePeaks(audio.peaks, memoID: id)
                for tag in tags {
                    try connection.execute("INSERT OR IGNORE INTO voice_memo_tags (memo_id, tag) VALUES (?, ?)", id, tag)
                }
                let name = try moveIntoPlace(file, id: id, audio: audio)
                finalName = name
                try connection.execute("UPDATE voice_memos SET file_name = ? WHERE id = ?", name, id)
                return id
            }
            file.closeDescriptor()
            return try memo(id: id)
        } catch {
            if let finalName {
                // Renamed but not committed: the row is gone, so the file goes too.
                file.closeDescriptor()
                unlink(directory + "/" + finalName)
                try? FileSystem.fsyncDirectory(directory)
            } else {
                file.discard()
            }
            throw error
        }
    }

    /// The last component of a path.
    static func baseName(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }

    /// A file's name without its extension: the title when the file has no tag.
    static func defaultTitle(_ path: String) -> String {
        let name = baseName(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The tags as voice memos took them before they followed the one tag
    /// rule (`Tags`): trimmed, non-empty, distinct, spaces allowed inside.
    /// Kept for archives, which may hold tags stored then.
    static func archivedTags(_ tags: [String]) throws -> [String] {
        var result: [String] = []
        for tag in tags {
            let trimmed = tag.trimmingSpaces()
            guard !trimmed.isEmpty else {
                throw MemoError(.usage, en: "a tag cannot be empty", ko: "태그는 비워 둘 수 없습니다")
            }
            if !result.contains(trimmed) { result.append(trimmed) }
        }
        return result
    }
}
