import MemoCore
import Notes
#if canImport(Glibc)
import Glibc
#endif

/// `memo export --format md DIR`: every memo as its own Markdown file (see
/// `MemoMarkdown`) in a folder, made when missing. Each file keeps the output
/// rules of `OutputFile` (never inside the data home, never over anything but
/// a regular file, an existing one replaced only when allowed), and every
/// file's place is checked before the first is written: a clash writes
/// nothing. The memos are read in one transaction, so the files show one
/// moment even while another process writes.
public enum MemoMarkdownExport {
    /// What an export wrote.
    public struct Result: Sendable {
        /// The folder as the user named it.
        public let folder: String
        /// The names of the files written, in the memos' list order.
        public let fileNames: [String]
    }

    /// The one format the files have.
    public static let markdown = OutputFormat("md", fileExtensions: ["md"])

    /// Writes every memo into `folder`.
    /// - Throws: `.usage` for an empty name or `-`; `.invalidState` for a
    ///   folder inside the data home, a non-folder at `folder`, or a file that
    ///   exists there without `mayReplace`; `.storage` when writing fails.
    public static func export(to folder: String, mayReplace: Bool, from workspace: Workspace) throws -> Result {
        guard !folder.isEmpty, folder != "-" else {
            throw MemoError(.usage, en: "name a folder to write the memos into", ko: "메모를 쓸 폴더를 지정하세요")
        }
        var path = folder
        while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
        try prepare(path, given: folder, home: workspace.home)
        let store = try workspace.memoStore()
        return try workspace.database().readTransaction {
            var places: [(id: Int64, output: OutputFile)] = []
            try store.forEachSummary(matching: MemoQuery()) { summary in
                let name = MemoMarkdown.fileName(id: summary.id, title: summary.title, preview: summary.preview)
                places.append((summary.id, try OutputFile.choose(path + "/" + name, format: markdown.name, among: [markdown],
                                                                 home: workspace.home, mayReplace: mayReplace)))
            }
            for (id, output) in places {
                try output.write(text: MemoMarkdown.document(of: try store.memo(id: id)), finishesFolder: false)
            }
            try OutputFile.finishFolder(of: places.map(\.output))
            return Result(folder: folder, fileNames: places.map { OutputFile.baseName($0.output.given) })
        }
    }

    // MARK: - Private

    /// Makes the folder (0700: memos are private) unless it is there, after
    /// checking that it is not the data home or inside it.
    private static func prepare(_ folder: String, given: String, home: DataHome) throws {
        var status = stat()
        if stat(folder, &status) == 0 {
            guard (status.st_mode & S_IFMT) == S_IFDIR else {
                throw MemoError(.invalidState, en: "\(given) is not a folder; name a folder (it is made when missing)",
                                ko: "\(given)은(는) 폴더가 아닙니다. 폴더를 지정하세요 (없으면 만듭니다)")
            }
            try OutputFile.refuseInside(home, folder: OutputFile.realPath(folder) ?? folder, given: given)
            return
        }
        guard errno == ENOENT, let parent = OutputFile.realPath(OutputFile.folderPart(folder)) else {
            throw FileSystem.storageError(.creating, given)
        }
        try OutputFile.refuseInside(home, folder: parent, given: given)
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw FileSystem.storageError(.creating, given) }
    }
}
