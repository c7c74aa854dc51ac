#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A file a user named as input (an import, an export document), read whole.
public struct InputFile: Sendable {
    public let path: String
    public let bytes: [UInt8]
    public let modifiedAt: Timestamp

    /// Reads `path`. It must be a regular file: a FIFO, a device or a folder is
    /// refused before anything is read, and opening never blocks (a FIFO with
    /// no writer would hang `open` itself, so it is opened non-blocking first).
    /// - Throws: `.noInput` (exit 66) when the file is missing, unreadable or
    ///   not a regular file.
    public static func read(_ path: String) throws -> InputFile {
        let opened = try open(path)
        defer { close(opened.descriptor) }
        return try read(opened.descriptor, path: path)
    }

    /// Reads the file `open` opened at `descriptor`, named `path`, from where
    /// it is to its end; the caller closes it.
    public static func read(_ descriptor: Int32, path: String) throws -> InputFile {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw cannotRead(path, errno) }
        let bytes = try readAll(descriptor, sizeHint: Int(status.st_size), path: path)
        let modified = status.st_mtim
        return InputFile(path: path, bytes: bytes,
                         modifiedAt: Timestamp(secondsSince1970: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9))
    }

    /// Opens `path` for reading as `read` does, checks included, for a file
    /// read a piece at a time; the caller closes the descriptor.
    public static func open(_ path: String) throws -> (descriptor: Int32, status: stat) {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let failure = errno
            if failure == ENOENT {
                throw MemoError(.noInput, en: "no such file: \(path)", ko: "파일이 없습니다: \(path)")
            }
            throw cannotRead(path, failure)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let failure = errno
            close(descriptor)
            throw cannotRead(path, failure)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw MemoError(.noInput, en: "\(path) is not a regular file", ko: "\(path)은(는) 일반 파일이 아닙니다")
        }
        // A regular file never blocks; clear the flag so reads behave as usual.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return (descriptor, status)
    }

    /// Reads `descriptor` to its end (standard input, an opened file).
    public static func readAll(_ descriptor: Int32, sizeHint: Int = 0, path: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, sizeHint))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw cannotRead(path, errno) }
            if count == 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    /// Reads `descriptor` from where it is, a piece of up to `pieceSize`
    /// bytes each call, nil at its end: for readers that take a file a piece
    /// at a time.
    public static func pieces(of descriptor: Int32, path: String,
                              pieceSize: Int = 1 << 20) -> () throws -> ArraySlice<UInt8>? {
        var buffer = [UInt8](repeating: 0, count: pieceSize)
        return {
            while true {
                let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw cannotRead(path, errno) }
                return count == 0 ? nil : buffer[0..<count]
            }
        }
    }

    private static func cannotRead(_ path: String, _ failure: Int32) -> MemoError {
        let reason = String(cString: strerror(failure))
        return MemoError(.noInput, en: "cannot read \(path): \(reason)", ko: "\(path)을(를) 읽을 수 없습니다: \(reason)")
    }
}
