#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite

/// Brings imported voice memos' audio into the library folder, keeping the
/// store's rules (see `VoiceStore`): no row without its file, no file
/// without its row.
///
/// 1. `stage(_:)`, before the write transaction: finds the memo's audio in
///    the search folders, by its library file name, by any library name with
///    its checksum (another home's id), then by its original name, and copies
///    the first file whose size and XXH3-128 checksum match into a locked
///    temporary in the library folder, fsynced. The checksum proves it is
///    the exported audio, byte for byte; decoding the copy proves that the
///    document says of it what it is (see `checkMetadata`), since the row is
///    stored from the document.
/// 2. `insert(_:keepingID:into:)`, inside the transaction: the row, peaks and
///    tags, then the rename to `<id>-<checksum>.<ext>` and a folder fsync
///    before the commit.
/// 3. `finish(committed:)`, after it: on a rollback the renamed files are
///    removed; temporaries never used are removed either way. A crash between
///    a rename and the commit leaves a final name without a row, which the
///    next writing voice command removes, as after `voice import`.
public final class VoiceAudioImport {
    /// The library folder (`voice/` in the data home).
    public let directory: String
    /// Where audio is looked for, in order.
    public let searchFolders: [String]
    private var staged: [String: TemporaryFile] = [:]
    private var renamed: [String] = []
    private var listings: [String: [String]] = [:]

    /// An import into the library folder `directory`, looking for audio in
    /// `searchFolders` in order.
    public init(directory: String, searchFolders: [String]) {
        self.directory = directory
        self.searchFolders = searchFolders
    }

    /// Unused temporaries go; files renamed into place stay (only
    /// `finish(committed: false)` removes them, knowing the rows are gone).
    deinit {
        for file in staged.values { file.discard() }
    }

    /// Finds and copies `item`'s audio (see the type's documentation).
    /// Returns false when no file in the search folders holds it.
    /// - Throws: `.storage` when the library folder cannot be written;
    ///   `.badInput` naming the member's JSON path when the audio found does
    ///   not decode to what the document says (its frames, rate, channels,
    ///   duration or format). Nothing is staged then.
    @discardableResult
    public func stage(_ item: VoiceArchive.Item) throws -> Bool {
        if staged[item.uid] != nil { return true }
        try FileSystem.makeDirectory(directory)
        for candidate in candidates(for: item) {
            // A link planted in the library folder leads to no memo's audio; a folder the user names may hold links.
            let isInLibrary = candidate.hasPrefix(directory + "/")
            guard FileSystem.size(of: candidate) == item.size,
                  let source = try? FileByteSource(path: candidate, followsSymbolicLinks: !isInLibrary) else {
                continue
            }
            let copy = try TemporaryFile(in: directory, purpose: "import")
            do {
                if try copyAndHash(source, to: copy) == item.checksum {
                    try copy.sync()
                    try VoiceAudioImport.checkMetadata(of: item, against: copy)
                    staged[item.uid] = copy
                    return true
                }
            } catch let error as MemoError where error.kind == .noInput {
                // The candidate could not be read: try the next one.
            } catch {
                copy.discard()
                throw error
            }
            copy.discard()
        }
        return false
    }

    /// Whether `stage` found audio for the memo with `uid`.
    public func hasAudio(forUID uid: String) -> Bool { staged[uid] != nil }

    /// Stores `item` with its staged audio: the row (under its own id when
    /// `keepingID`, else a new one), its peaks and tags, and the audio renamed
    /// into place. Call inside a write transaction. Returns the id.
    /// - Throws: `.duplicate` when a voice memo has its uid.
    @discardableResult
    public func insert(_ item: VoiceArchive.Item, keepingID: Bool, into connection: Connection) throws -> Int64 {
        guard let file = staged[item.uid] else {
            preconditionFailure("insert of voice memo \(item.uid) without staged audio")
        }
        do {
            try connection.execute("""
                INSERT INTO voice_memos (id, uid, title, original_name, file_name, container, encoding, format_code,
                    sample_rate, channels, frames, duration, size, peak_level, checksum, imported_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, keepingID ? item.id : nil, item.uid, item.title, item.originalName, file.name, item.container,
                item.encoding, item.formatCode, item.sampleRate, item.channels, item.frames, item.duration,
                item.size, item.peakLevel, item.checksum, item.importedAt.secondsSince1970,
                item.updatedAt?.secondsSince1970)
        } catch let error as SQLiteError where error.isUniqueViolation(table: "voice_memos", column: "uid") {
            throw VoiceStore.duplicateUID(item.uid)
        }
        let id = connection.lastInsertRowID
        if let peaks = item.peaks {
            try connection.execute("INSERT INTO voice_memo_peaks (memo_id, samples_per_pixel, data) VALUES (?, ?, ?)",
                                   id, peaks.samplesPerPixel, peaks.blob)
        }
        for tag in item.tags {
            try connection.execute("INSERT INTO voice_memo_tags (memo_id, tag) VALUES (?, ?)", id, tag)
        }
        let name = VoiceStore.libraryName(id: id, checksum: item.checksum, fileExtension: item.fileExtension)
        try FileSystem.rename(file.path, to: directory + "/" + name)
        renamed.append(name)
        staged[item.uid] = nil
        file.closeDescriptor()
        try FileSystem.fsyncDirectory(directory)
        try connection.execute("UPDATE voice_memos SET file_name = ? WHERE id = ?", name, id)
        return id
    }

    /// Cleans up after the write transaction: temporaries never inserted are
    /// removed; when it did not commit, so are the files renamed into place.
    public func finish(committed: Bool) {
        for file in staged.values { file.discard() }
        staged = [:]
        if !committed {
            for name in renamed { unlink(directory + "/" + name) }
        }
        if !renamed.isEmpty && !committed { try? FileSystem.fsyncDirectory(directory) }
        renamed = []
    }

    /// Decodes the staged copy (as libsndfile reads it, the way an import
    /// reads a file) and holds the document's metadata to it: the row is
    /// stored from the document, and a row that disagrees with its audio (a
    /// length of 10^15 frames, 2^63−1) would show, trim and export wrong.
    /// - Throws: `.badInput` naming the first member that disagrees.
    static func checkMetadata(of item: VoiceArchive.Item, against copy: TemporaryFile) throws {
        let audio: ScannedAudio
        do {
            audio = try AudioScanner.scan(try FileByteSource(path: copy.path, followsSymbolicLinks: false),
                                          name: item.fileName)
        } catch let error as MemoError where error.kind == .badInput {
            throw item.failure(at: "file_name", en: "its audio does not decode: \(error.message.en)",
                               ko: "오디오를 디코딩할 수 없습니다: \(error.message.ko)")
        }
        func disagree(_ key: String, _ stated: String, _ decoded: String) -> MemoError {
            item.failure(at: key, en: "\(stated), but its audio (\(item.fileName)) decodes to \(decoded)",
                         ko: "\(stated)라고 되어 있지만 오디오(\(item.fileName))는 \(decoded)입니다")
        }
        if item.frames != audio.frames { throw disagree("frames", "\(item.frames)", "\(audio.frames)") }
        if item.sampleRate != audio.sampleRate { throw disagree("sample_rate", "\(item.sampleRate)", "\(audio.sampleRate)") }
        if item.channels != audio.channels { throw disagree("channels", "\(item.channels)", "\(audio.channels)") }
        // Written as frames / rate; anything within half a frame of it is the same length.
        if !(abs(item.duration - audio.duration) <= 0.5 / Double(audio.sampleRate)) {
            throw disagree("duration", "\(item.duration) s", "\(audio.duration) s")
        }
        if item.formatCode != audio.formatCode { throw disagree("format_code", "\(item.formatCode)", "\(audio.formatCode)") }
        // Names as JSON strings: the document's may hold anything, control characters too.
        func quoted(_ text: String) -> String { JSON.string(text).serialized }
        if item.container != audio.container {
            throw disagree("container", quoted(item.container), quoted(audio.container))
        }
        if item.encoding != audio.encoding { throw disagree("encoding", quoted(item.encoding), quoted(audio.encoding)) }
    }

    // MARK: - Private

    /// Paths that may hold `item`'s audio, best first.
    private func candidates(for item: VoiceArchive.Item) -> [String] {
        var paths: [String] = []
        let marker = "-" + item.checksum + "."
        for folder in searchFolders {
            let names = listing(of: folder)
            var found = names.filter { $0 == item.fileName }
            found += names.filter { $0 != item.fileName && $0.contains(marker) }
            if !item.originalName.isEmpty, !item.originalName.contains("/"), names.contains(item.originalName) {
                found.append(item.originalName)
            }
            for name in found where !paths.contains(folder + "/" + name) { paths.append(folder + "/" + name) }
        }
        return paths
    }

    /// The visible names in `folder` (none when it cannot be listed), once per folder.
    private func listing(of folder: String) -> [String] {
        if let names = listings[folder] { return names }
        let names = ((try? FileSystem.names(in: folder)) ?? []).filter { !$0.hasPrefix(".") }
        listings[folder] = names
        return names
    }

    /// Copies `source` into `copy` and returns the checksum of the bytes copied.
    private func copyAndHash(_ source: FileByteSource, to copy: TemporaryFile) throws -> String {
        let checksum = StreamingChecksum()
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        var offset: Int64 = 0
        while true {
            let count = try source.read(at: offset, into: buffer, count: size)
            if count == 0 { break }
            checksum.update(buffer, count: count)
            try FileSystem.writeAll(copy.descriptor, buffer, count: count, path: copy.path)
            offset += Int64(count)
        }
        return checksum.hexDigest
    }
}
