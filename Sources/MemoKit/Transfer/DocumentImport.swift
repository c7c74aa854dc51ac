import MemoCore
import VoiceMemos
#if canImport(Glibc)
import Glibc
#endif

/// Reads an export document into a data home: restored exactly into an empty
/// one, else the items whose uid is not there yet are added with new ids.
/// The whole document is checked before anything is committed: its header
/// and voice memos first, whose audio is found by checksum in the search
/// folders and copied in before the write lock is taken; then one
/// transaction checks and writes every other item, and rolls back at the
/// first bad one (`ImportDocument`).
public struct DocumentImport {
    public let workspace: Workspace
    /// Folders to look in for voice memo audio, in order, before the data
    /// home's own `voice/`.
    public let audioFolders: [String]
    /// When set, the import is one step of the undo history, described so.
    public var undoDescription: String?
    /// Called with each item written and the document's item count.
    public var progress: ((Int, Int) -> Void)?

    /// - Throws: `.noInput` when an audio folder does not exist: a mistyped
    ///   folder would otherwise show only as audio not found, after the fact.
    public init(workspace: Workspace, audioFolders: [String]) throws {
        for folder in audioFolders where !DocumentImport.isFolder(folder) {
            throw MemoError(.noInput, en: "\(folder): no such folder", ko: "\(folder): 그런 폴더가 없습니다")
        }
        self.workspace = workspace
        self.audioFolders = audioFolders
    }

    /// Imports the document in `source`, named `name` in messages (the file's
    /// path, or a name for standard input). `besideFile`, when the document
    /// came from a file, is that file's path: a `voice/` folder beside it is
    /// searched last (a backup's `voice/` works). The document is read as a
    /// stream, so memory does not grow with it.
    /// - Throws: `.badInput` naming the JSON path when the document is malformed.
    public func run(_ source: JSONObjectStream.Source, name: String, besideFile: String? = nil) throws -> DocumentImportReport {
        let document = try ImportDocument(JSONObjectStream(source, name: name))
        let connection = try workspace.database()
        var folders = audioFolders
        folders.append(workspace.home.voiceDirectory)
        if let besideFile { folders.append(OutputFile.folderPart(besideFile) + "/voice") }
        let audio = VoiceAudioImport(directory: workspace.home.voiceDirectory, searchFolders: folders)
        // Audio is copied before the write lock is taken (it may be large);
        // memos already here need none. The transaction checks again.
        for item in document.voiceMemos where try !VoiceArchive.contains(uid: item.uid, in: connection) {
            try audio.stage(item)
        }
        let report: DocumentImportReport
        do {
            // A cache for the index pages of millions of rows (see withCacheSize).
            let write = { (undo: UndoHistory?) in
                try connection.withCacheSize(kibibytes: DocumentImport.cacheKibibytes) {
                    try ImportWriter.write(document, audio: audio, into: connection, undo: undo, progress: progress)
                }
            }
            report = try connection.withTemporaryFilesInMemory {
                if let undoDescription {
                    let history = try workspace.undoHistory()
                    return try history.record(undoDescription) { try write(history) }
                }
                return try connection.writeTransaction { try write(nil) }
            }
        } catch {
            audio.finish(committed: false)
            throw error
        }
        audio.finish(committed: true)
        return report
    }

    /// 128 MiB: an import of 2,000,000 items peaks near 420 MB with it, well
    /// under the 600 MB it is allowed; `todo import` of 1,000,000 Taskwarrior
    /// tasks near 240 MB of its 300.
    static let cacheKibibytes = 128 * 1024

    private static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
