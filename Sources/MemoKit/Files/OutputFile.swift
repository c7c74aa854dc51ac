import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// A file the user names for memoapp to write (an export, a voice memo's
/// audio, a waveform picture): the one set of rules every such command keeps.
///
/// ## Where it may go
/// `-` is standard output. Anything else is a regular file outside the data
/// home: the name is followed through symbolic links and its folder through
/// `realpath`, and the place they lead to is refused when it lies inside the
/// data home (compared by device and inode, so a bind mount or another
/// spelling of the path is caught too), and when something other than a
/// regular file is there (a folder, a device such as /dev/null, a FIFO, a
/// socket). A regular file that is there is replaced only when the command
/// may replace it (`--force`); the error says so with `MemoError.Hint.force`.
///
/// ## How it is written
/// Into a `TemporaryFile` in the same folder, flushed, then put in
/// place: `link` when nothing was there (so a file that appeared meanwhile
/// is never replaced unasked), `rename` over the old file otherwise; then the
/// folder is flushed. The place is the one the checks looked at: a symbolic
/// link stays and now leads to the new file. A failure removes the temporary
/// and leaves what was there. A later write to the same name removes the
/// temporaries of writers that were killed, once their lock proves it.
///
/// Every message names the path as the user gave it, never a temporary.
public struct OutputFile: Sendable {
    public enum Place: Equatable, Sendable {
        case standardOutput
        /// The real folder (links resolved) and the name in it.
        case file(folder: String, name: String)
    }

    /// The destination as the user gave it.
    public let given: String
    public let place: Place
    public let format: OutputFormat
    /// A regular file is there now, and the write replaces it.
    public let replacesFile: Bool
    private let mayReplace: Bool

    public var isStandardOutput: Bool { place == .standardOutput }

    /// Checks a destination against the rules and picks its format.
    /// - Parameters:
    ///   - given: the path the user named, or `-`.
    ///   - askedFormat: the format the user named, if any (see `OutputFormat.choose`).
    ///   - formats: what the command can write.
    ///   - mayReplace: an existing regular file may be replaced.
    /// - Throws: `.usage` for an empty path or a format that cannot be told or
    ///   does not match; `.invalidState` for a place inside the data home, a
    ///   folder, device, FIFO or socket, or an existing file without
    ///   `mayReplace`; `.storage` when the folder cannot be reached.
    public static func choose(_ given: String, format askedFormat: String?, among formats: [OutputFormat],
                              home: DataHome, mayReplace: Bool) throws -> OutputFile {
        guard !given.isEmpty else {
            throw MemoError(.usage, en: "the output file name is empty", ko: "출력 파일 이름이 비어 있습니다")
        }
        if given == "-" {
            let format = try OutputFormat.choose(for: nil, asked: askedFormat, among: formats)
            return OutputFile(given: given, place: .standardOutput, format: format, replacesFile: false, mayReplace: false)
        }
        // Where first: a place that must never be written is named as such,
        // whatever its name says about the format.
        let (folder, name) = try locate(given)
        try refuseInside(home, folder: folder, given: given)
        var status = stat()
        var exists = false
        if lstat(folder + "/" + name, &status) == 0 {
            try refuseUnlessRegular(status, given: given)
            guard mayReplace else { throw existsError(given) }
            exists = true
        } else if errno != ENOENT {
            throw FileSystem.storageError(.creating, given)
        }
        let format = try OutputFormat.choose(for: given, asked: askedFormat, among: formats)
        return OutputFile(given: given, place: .file(folder: folder, name: name), format: format,
                          replacesFile: exists, mayReplace: mayReplace)
    }

    /// Writes the file: `produce` fills the descriptor of an empty file open
    /// for reading, writing and seeking; errors it throws should name `given`.
    /// - Parameter finishesFolder: false for one file of many in the same
    ///   folder, whose flush and sweep of abandoned temporaries are then left
    ///   to one `finishFolder(of:)` after the last (a sweep lists the folder:
    ///   once per file, ten thousand files take minutes).
    /// - Returns: the bytes written.
    @discardableResult
    public func write(finishesFolder: Bool = true, _ produce: (_ descriptor: Int32) throws -> Void) throws -> Int64 {
        guard case let .file(folder, name) = place else {
            preconditionFailure("standard output is written by the front end")
        }
        let prefix = OutputFile.temporaryPrefix(for: name)
        let temporary = try TemporaryFile(in: folder, prefix: prefix, suffix: OutputFile.temporarySuffix,
                                          shownPath: given)
        var size: Int64 = 0
        do {
            try produce(temporary.descriptor)
            try temporary.sync()
            var status = stat()
            if fstat(temporary.descriptor, &status) == 0 { size = Int64(status.st_size) }
            try moveIntoPlace(temporary.path, at: folder + "/" + name)
        } catch {
            temporary.discard()
            throw naming(error)
        }
        temporary.closeDescriptor()
        if finishesFolder { try OutputFile.finishFolder(of: [self]) }
        return size
    }

    /// Makes the new names of `files` (written with `finishesFolder: false`)
    /// durable, a flush per folder, and removes the temporaries that killed
    /// writers of those names left, once their lock proves it.
    public static func finishFolder(of files: [OutputFile]) throws {
        var prefixes: [String: Set<String>] = [:]
        for file in files {
            guard case let .file(folder, name) = file.place else { continue }
            if prefixes[folder] == nil { try file.flush(folder) }
            prefixes[folder, default: []].insert(temporaryPrefix(for: name))
        }
        for (folder, wanted) in prefixes {
            TemporaryFile.removeAbandoned(in: folder) { name in
                // `.<name>.<16 hex>.part`: the prefix is all but the last 16 + 5 bytes.
                let prefixLength = name.utf8.count - 16 - temporarySuffix.utf8.count
                guard prefixLength > 0, let prefix = String(name.utf8.prefix(prefixLength)) else { return false }
                return wanted.contains(prefix) && TemporaryFile.isName(name, prefix: prefix, suffix: temporarySuffix)
            }
        }
    }

    /// Writes `text` as UTF-8.
    @discardableResult
    public func write(text: String, finishesFolder: Bool = true) throws -> Int64 {
        try write(finishesFolder: finishesFolder) { descriptor in
            var text = text
            try text.withUTF8 { buffer in
                guard let start = buffer.baseAddress else { return }
                try FileSystem.writeAll(descriptor, start, count: buffer.count, path: given)
            }
        }
    }

    // MARK: - Private

    static let temporarySuffix = ".part"

    /// `.<name>.` (the name cut so the whole temporary name fits in 255 bytes).
    static func temporaryPrefix(for name: String) -> String {
        let room = 255 - 2 - 16 - temporarySuffix.utf8.count
        var kept = ""
        var bytes = 0
        for character in name.unicodeScalars {
            let width = String(character).utf8.count
            if bytes + width > room { break }
            kept.unicodeScalars.append(character)
            bytes += width
        }
        return "." + kept + "."
    }

    /// The real folder and the name in it that `given` leads to: symbolic
    /// links at the name followed (a dangling one to where it points), the
    /// folder through `realpath`.
    private static func locate(_ given: String) throws -> (folder: String, name: String) {
        var path = given
        for _ in 0..<40 {
            let name = baseName(path)
            if name.isEmpty || name == "." || name == ".." || path.hasSuffix("/") {
                throw notRegular(given, Localized(en: "a folder", ko: "폴더"))
            }
            var status = stat()
            guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else {
                guard let folder = realPath(folderPart(path)) else {
                    throw FileSystem.storageError(.creating, given)
                }
                return (folder, name)
            }
            guard let target = linkTarget(path) else { throw FileSystem.storageError(.opening, given) }
            path = target.hasPrefix("/") ? target : folderPart(path) + "/" + target
        }
        throw FileSystem.storageError(.opening, given, code: ELOOP)
    }

    /// Refuses a folder that is the data home or lies below it.
    static func refuseInside(_ home: DataHome, folder: String, given: String) throws {
        var homeStatus = stat()
        guard stat(home.path, &homeStatus) == 0 else { return }  // no data home yet: nothing to protect
        var ancestor = folder
        while true {
            var status = stat()
            if stat(ancestor, &status) == 0, status.st_dev == homeStatus.st_dev, status.st_ino == homeStatus.st_ino {
                throw MemoError(
                    .invalidState,
                    en: "\(given) is inside the data home \(home.path), where memoapp keeps its own files; name a file elsewhere",
                    ko: "\(given)은(는) memoapp이 자기 파일을 두는 데이터 폴더 \(home.path) 안에 있습니다. 다른 곳의 파일을 지정하세요")
            }
            if ancestor == "/" { return }
            ancestor = folderPart(ancestor)
        }
    }

    private static func refuseUnlessRegular(_ status: stat, given: String) throws {
        switch status.st_mode & S_IFMT {
        case S_IFREG: return
        case S_IFDIR: throw notRegular(given, Localized(en: "a folder", ko: "폴더"))
        case S_IFCHR, S_IFBLK: throw notRegular(given, Localized(en: "a device", ko: "장치"))
        case S_IFIFO: throw notRegular(given, Localized(en: "a FIFO", ko: "FIFO"))
        case S_IFSOCK: throw notRegular(given, Localized(en: "a socket", ko: "소켓"))
        default: throw notRegular(given, Localized(en: "not a regular file", ko: "일반 파일이 아님"))
        }
    }

    private static func notRegular(_ given: String, _ what: Localized) -> MemoError {
        MemoError(.invalidState, en: "\(given) is \(what.en); memoapp writes only regular files: name a file",
                  ko: "\(given)은(는) \(what.ko)입니다. memoapp은 일반 파일에만 씁니다: 파일 이름을 지정하세요")
    }

    private static func existsError(_ given: String) -> MemoError {
        MemoError(.invalidState, hint: .force, en: "\(given) exists", ko: "\(given)이(가) 이미 있습니다")
    }

    /// `link` where nothing was (it fails rather than replace a file that
    /// appeared meanwhile), `rename` over a regular file the write may
    /// replace; checked again just before, so a folder or a device put there
    /// since `choose` is not replaced either.
    private func moveIntoPlace(_ temporary: String, at destination: String) throws {
        var status = stat()
        if lstat(destination, &status) != 0 {
            if link(temporary, destination) == 0 {
                unlink(temporary)
                return
            }
            let code = errno
            if code != EEXIST {
                // A file system without hard links (FAT, some FUSE ones) takes a rename.
                guard [EPERM, EOPNOTSUPP, EMLINK, ENOSYS].contains(code) else {
                    throw FileSystem.storageError(.writing, given, code: code)
                }
                return try rename(temporary, over: destination)
            }
            // Made since `choose` looked.
            guard lstat(destination, &status) == 0 else { throw FileSystem.storageError(.writing, given, code: code) }
        }
        try OutputFile.refuseUnlessRegular(status, given: given)
        guard mayReplace else { throw OutputFile.existsError(given) }
        try rename(temporary, over: destination)
    }

    /// A storage failure of the producer that does not say where it was
    /// writing (libsndfile's "System error : File too large") gets the
    /// destination's name in front.
    private func naming(_ error: Error) -> Error {
        guard let failure = error as? MemoError, failure.kind == .storage, !failure.message.en.contains(given) else {
            return error
        }
        return MemoError(.storage, Localized(en: "cannot write \(given): " + failure.message.en,
                                             ko: "\(given)에 쓸 수 없습니다: " + failure.message.ko), hint: failure.hint)
    }

    private func rename(_ temporary: String, over destination: String) throws {
        guard Glibc.rename(temporary, destination) == 0 else { throw FileSystem.storageError(.writing, given) }
    }

    /// Makes the new name durable. A folder that cannot be opened for reading
    /// (mode -wx) still took the rename; only its flush is skipped then.
    private func flush(_ folder: String) throws {
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return }
        defer { close(directory) }
        try FileSystem.fsyncFile(directory, path: given)
    }

    static func baseName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    /// The folder part of a path ("." for a bare name, "/" for one at the root).
    static func folderPart(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
