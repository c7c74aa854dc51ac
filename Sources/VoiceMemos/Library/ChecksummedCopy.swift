#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Copies a file's bytes while taking their XXH3-128, in one pass: how a
/// backup copies the voice library and the database, and how a restore
/// checks every byte it brings back against the backup's MANIFEST.
public enum ChecksummedCopy {
    /// The bytes copied: their XXH3-128 (hex, as `xxh128sum` prints it) and count.
    public struct Summary: Equatable, Sendable {
        /// XXH3-128, 32 lowercase hex digits.
        public let checksum: String
        /// Bytes.
        public let size: Int64
    }

    /// Copies everything from `source` (read from its current offset to its
    /// end) into `destination`, or only takes the checksum when `destination`
    /// is nil. The paths are for error messages. Does not fsync.
    /// - Throws: `.storage` naming the path when a read or a write fails
    ///   (a full disk says so).
    public static func copy(from source: Int32, sourcePath: String, to destination: Int32?,
                            destinationPath: String = "") throws -> Summary {
        let bufferSize = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        _ = posix_fadvise(source, 0, 0, POSIX_FADV_SEQUENTIAL)
        let checksum = StreamingChecksum()
        var size: Int64 = 0
        while true {
            let count = read(source, buffer, bufferSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystem.storageError(.reading, sourcePath)
            }
            if count == 0 { break }
            checksum.update(buffer, count: count)
            if let destination {
                try FileSystem.writeAll(destination, buffer, count: count, path: destinationPath)
            }
            size += Int64(count)
        }
        return Summary(checksum: checksum.hexDigest, size: size)
    }

    /// The checksum of the regular file at `path` (a symbolic link is not
    /// followed). Throws `.noInput` when it is missing, unreadable or not a
    /// regular file, `.storage` when a read fails.
    public static func checksum(ofFileAt path: String) throws -> Summary {
        let descriptor = try openRegularFile(path)
        defer { close(descriptor) }
        return try copy(from: descriptor, sourcePath: path, to: nil)
    }

    /// Opens a regular file for reading, without following a symbolic link
    /// unless `followsSymbolicLinks`. A FIFO or a device is refused without
    /// waiting for it: the open does not block (O_NONBLOCK, which changes
    /// nothing for the regular file that is all this lets through).
    /// - Throws: `.noInput` naming the path and the reason.
    public static func openRegularFile(_ path: String, followsSymbolicLinks: Bool = false) throws -> Int32 {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followsSymbolicLinks ? 0 : O_NOFOLLOW)
        let descriptor = open(path, flags)
        guard descriptor >= 0 else {
            let code = errno
            let isLink = code == ELOOP && !followsSymbolicLinks
            let en = isLink ? "it is a symbolic link" : String(cString: strerror(code))
            let ko = isLink ? "심볼릭 링크입니다" : en
            throw MemoError(.noInput, en: "cannot open \(path): \(en)", ko: "\(path) 파일을 열 수 없습니다: \(ko)")
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw MemoError(.noInput, en: "\(path) is not a regular file", ko: "\(path)은(는) 일반 파일이 아닙니다")
        }
        return descriptor
    }
}
