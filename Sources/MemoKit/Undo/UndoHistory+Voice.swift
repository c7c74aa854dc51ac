#if canImport(Glibc)
import Glibc
#endif
import MemoCore
import SQLite
import VoiceMemos

/// Voice memos' audio in the undo history: `voice/.undo/<step>-<file>`, a
/// hard link to the library file made in the recording transaction, so the
/// bytes stay when the library's name for them goes.
///
/// Crash safety follows the library's rule (a row never without its file):
/// links are made before the commit that names them and removed after the
/// commit that forgets them; a kept file no history row names is a leftover,
/// removed under the write lock by the next undo or keeping.
extension UndoHistory {
    /// The folder of kept audio.
    public var keptAudioDirectory: String { voiceDirectory + "/.undo" }

    /// Removes voice memos as one step, keeping their audio for an undo.
    @discardableResult
    public func removeVoiceMemos(ids: [Int64], in store: VoiceStore, description: String,
                                 origin: ChangeOrigin = .cli) throws -> [VoiceMemo] {
        try record(description, origin: origin) {
            // Every id first: an unknown one changes nothing and keeps nothing.
            let memos = try Set(ids).map { try store.memo(id: $0) }
            for memo in memos { try keepAudio(named: memo.fileName) }
            return try store.remove(ids: ids)
        }
    }

    /// Trims a voice memo as one step, keeping the audio the trim replaces.
    public func trimVoiceMemo(id: Int64, start: Double, end: Double, in store: VoiceStore,
                              description: String, origin: ChangeOrigin = .cli,
                              progress: ((Int64, Int64) -> Void)? = nil) throws -> VoiceMemo {
        try record(description, origin: origin) {
            let kept = try keepAudio(named: try store.memo(id: id).fileName)
            do {
                return try store.trim(id: id, start: start, end: end, progress: progress)
            } catch {
                // A refused span keeps nothing (the sweep would, later).
                unlink(kept)
                throw error
            }
        }
    }

    /// Keeps the library file `name` for the step being recorded; returns
    /// the kept file's path.
    @discardableResult
    func keepAudio(named name: String) throws -> String {
        guard let step = currentStep() else { preconditionFailure("keepAudio outside record") }
        guard VoiceStore.isLibraryName(name) else { throw UndoHistory.damagedLibraryName(name) }
        try sweepKeptFiles()
        try FileSystem.makeDirectory(voiceDirectory)
        try FileSystem.makeDirectory(keptAudioDirectory)
        let keptName = "\(step)-\(name)"
        let keptPath = keptAudioDirectory + "/" + keptName
        try FileSystem.removeFile(keptPath)
        guard link(voiceDirectory + "/" + name, keptPath) == 0 else {
            throw FileSystem.storageError(.creating, keptPath)
        }
        try FileSystem.fsyncDirectory(keptAudioDirectory)
        try connection.execute("INSERT INTO undo_files (kept_name, step, library_name) VALUES (?, ?, ?)",
                               keptName, step, name)
        return keptPath
    }

    /// Every library file name the voice memos hold.
    func libraryNames() throws -> Set<String> {
        Set(try connection.query("SELECT file_name FROM voice_memos") { $0.string(0) })
    }

    /// After an undo's rows are back: links the audio the memos name again
    /// back into the library (before the commit), and after the commit
    /// removes the kept files and the audio no memo names any more (a trim's
    /// result).
    func restoreAudio(of step: UndoStep, named returning: Set<String>, dropping gone: Set<String>) throws {
        let kept = try connection.query("SELECT kept_name, library_name FROM undo_files WHERE step = ?", step.id) {
            (kept: $0.string(0), library: $0.string(1))
        }
        var keptByLibraryName: [String: String] = [:]
        for file in kept { keptByLibraryName[file.library] = file.kept }
        for name in returning.sorted() {
            guard let keptName = keptByLibraryName[name], VoiceStore.isLibraryName(name),
                  FileSystem.exists(keptAudioDirectory + "/" + keptName) else {
                throw MemoError(.invalidState,
                                en: "cannot undo “\(step.description)”: the audio it removed is no longer kept; nothing was changed",
                                ko: "“\(step.description)”을(를) 되돌릴 수 없습니다: 지운 오디오가 남아 있지 않습니다. 아무것도 바꾸지 않았습니다")
            }
            let path = voiceDirectory + "/" + name
            // A file already there has no row (the memo had none until now): a
            // crashed command's leftover, replaced by the kept bytes.
            try FileSystem.removeFile(path)
            guard link(keptAudioDirectory + "/" + keptName, path) == 0 else {
                throw FileSystem.storageError(.creating, path)
            }
        }
        if !returning.isEmpty { try FileSystem.fsyncDirectory(voiceDirectory) }
        try removeKeptFilesAfterCommit(kept.map(\.kept))
        let dropped = gone.filter(VoiceStore.isLibraryName).map { voiceDirectory + "/" + $0 }
        try connection.afterCommit { [voiceDirectory] in
            for path in dropped { try FileSystem.removeFile(path) }
            if !dropped.isEmpty { try FileSystem.fsyncDirectory(voiceDirectory) }
        }
    }

    func removeKeptFilesAfterCommit(_ keptNames: [String]) throws {
        guard !keptNames.isEmpty else { return }
        let directory = keptAudioDirectory
        try connection.afterCommit {
            for name in keptNames { try FileSystem.removeFile(directory + "/" + name) }
            try FileSystem.fsyncDirectory(directory)
        }
    }

    /// Removes kept files no step names: links made by a transaction that
    /// then rolled back or crashed. Inside a write transaction, so no other
    /// process is between making a link and committing its row.
    func sweepKeptFiles() throws {
        guard !hasSweptKeptFiles else { return }
        hasSweptKeptFiles = true
        guard FileSystem.isDirectory(keptAudioDirectory) else { return }
        let named = Set(try connection.query("SELECT kept_name FROM undo_files") { $0.string(0) })
        var removed = false
        for name in try FileSystem.names(in: keptAudioDirectory) where !named.contains(name) {
            try FileSystem.removeFile(keptAudioDirectory + "/" + name)
            removed = true
        }
        if removed { try FileSystem.fsyncDirectory(keptAudioDirectory) }
    }

    private static func damagedLibraryName(_ name: String) -> MemoError {
        MemoError(.storage, en: "a voice memo's file name is not one memoapp gives: \(name)",
                  ko: "음성 메모의 파일 이름이 memoapp이 붙이는 것이 아닙니다: \(name)")
    }
}
