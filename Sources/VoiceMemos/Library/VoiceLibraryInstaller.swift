#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Brings audio files from a backup into the library folder, each as the
/// reliability rules ask: temporary file in the folder, fsync, rename, and
/// an fsync of the folder at the end (`finish()`).
///
/// The files arrive before the database that names them, so until the
/// database is replaced they are files without a row, which the next writing
/// command would remove as leftovers; a restore that fails half-way calls
/// `undo()` to remove at once the ones it added.
public final class VoiceLibraryInstaller {
    /// The library folder (`voice/` in the data home).
    public let directory: String
    /// Names this installer added that were not in the folder before.
    public private(set) var addedNames: [String] = []

    /// An installer into the library folder `directory` (created, mode 0700,
    /// with the first file).
    public init(directory: String) {
        self.directory = directory
    }

    /// Whether the folder holds any audio (or other non-hidden) file: a data
    /// home with such files is not empty.
    public static func hasFiles(in directory: String) -> Bool {
        guard FileSystem.isDirectory(directory), let names = try? FileSystem.names(in: directory) else { return false }
        return names.contains { !$0.hasPrefix(".") }
    }

    /// Copies the file at `source` into the folder as `fileName`, replacing a
    /// file of that name, after checking that the bytes copied have
    /// `checksum`. Returns the bytes copied.
    /// - Throws: `.usage` for a name memoapp does not make (never a path);
    ///   `.badInput` when the bytes differ (nothing is left behind);
    ///   `.noInput` when `source` cannot be opened; `.storage` for a failed
    ///   read, write or rename.
    @discardableResult
    public func install(from source: String, as fileName: String, checksum: String) throws -> Int64 {
        guard VoiceStore.isLibraryName(fileName) else {
            throw MemoError(.usage, en: "\(fileName) is not a voice memo file name", ko: "\(fileName)은(는) 음성 메모 파일 이름이 아닙니다")
        }
        try FileSystem.makeDirectory(directory)
        let input = try ChecksummedCopy.openRegularFile(source)
        defer { close(input) }
        let output = try TemporaryFile(in: directory, purpose: "restore")
        do {
            let copied = try ChecksummedCopy.copy(from: input, sourcePath: source, to: output.descriptor,
                                                  destinationPath: output.path)
            guard copied.checksum == checksum else {
                throw MemoError(.badInput, en: "\(source) changed while it was being restored (checksum \(copied.checksum), \(checksum) expected)",
                                ko: "\(source)이(가) 복원하는 동안 바뀌었습니다 (체크섬 \(copied.checksum), 예상 \(checksum))")
            }
            try output.sync()
            let target = directory + "/" + fileName
            let existed = FileSystem.exists(target)
            try FileSystem.rename(output.path, to: target)
            output.closeDescriptor()
            if !existed { addedNames.append(fileName) }
            return copied.size
        } catch {
            output.discard()
            throw error
        }
    }

    /// Makes every rename durable.
    public func finish() throws {
        guard FileSystem.isDirectory(directory) else { return }
        try FileSystem.fsyncDirectory(directory)
    }

    /// Removes the files this installer added (after a failure), best effort.
    public func undo() {
        for name in addedNames { unlink(directory + "/" + name) }
        addedNames = []
        try? finish()
    }
}
