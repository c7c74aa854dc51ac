#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A regular file open for reading, closed when the last value holding it
/// goes away. Responses send from it by descriptor, so a file is never read
/// into memory to be served.
public final class OpenFile: @unchecked Sendable {
    public let descriptor: Int32
    /// Its size when opened.
    public let size: UInt64

    /// Opens the regular file at `path` (not a folder, FIFO or device).
    public init(path: String) throws(MemoError) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw MemoError(.noInput, en: "cannot open \(path) (\(reason))", ko: "\(path)을(를) 열 수 없습니다 (\(reason))")
        }
        do throws(MemoError) {
            self.size = try OpenFile.regularFileSize(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
    }

    /// A range of this file for a response body.
    public func region(_ range: ClosedRange<UInt64>) -> FileRegion {
        precondition(range.upperBound < size, "the range \(range) is outside a file of \(size) bytes")
        return FileRegion(file: self, offset: range.lowerBound, length: range.upperBound - range.lowerBound + 1)
    }

    /// The whole file for a response body.
    public var wholeFile: FileRegion {
        FileRegion(file: self, offset: 0, length: size)
    }

    deinit {
        close(descriptor)
    }

    private static func regularFileSize(_ descriptor: Int32, path: String) throws(MemoError) -> UInt64 {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw MemoError(.noInput, en: "\(path) is not a regular file", ko: "\(path)은(는) 일반 파일이 아닙니다")
        }
        return UInt64(info.st_size)
    }
}

/// `length` bytes of an open file from `offset`.
public struct FileRegion: Sendable {
    public let file: OpenFile
    public let offset: UInt64
    public let length: UInt64
}
