#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Where the `memoapp serve` running on a data home can be reached, so that
/// commands which make links to it (`memoapp token link`) name the port it
/// really listens on, not a default.
///
/// The server writes its URL to `serve.url` in the home (temporary file,
/// fsync, rename) and keeps that file open with an exclusive `flock` for as
/// long as it runs. The kernel drops the lock when the process ends however
/// it ends, so a file whose lock anyone can take is a leftover: its server is
/// gone, and its URL is not reported (conventions: age alone proves nothing,
/// a lock does). Two servers on one home: the later one's URL is the one found.
public final class RunningServer {
    public static let fileName = "serve.url"

    private let file: TemporaryFile
    private let path: String

    /// Announces `url` for `home` until `withdraw()` or the process's end.
    /// - Throws: `.storage` when the home cannot be written.
    public init(home: DataHome, url: String) throws {
        path = home.path + "/" + RunningServer.fileName
        file = try TemporaryFile(in: home.path, purpose: "serve", fileExtension: "url")
        do {
            let bytes = Array((url + "\n").utf8)
            try FileSystem.writeAll(file.descriptor, bytes, count: bytes.count, path: path)
            try file.sync()
            try FileSystem.rename(file.path, to: path)
            try FileSystem.fsyncDirectory(home.path)
        } catch {
            file.discard()
            throw error
        }
        // Renamed into place: the descriptor, and with it the lock, stays
        // open (the temporary's own clean-up must not remove it).
    }

    /// Removes the file if it is still this server's (a later server may
    /// have put its own in its place), and lets go of the lock.
    public func withdraw() {
        var mine = stat(), named = stat()
        if fstat(file.descriptor, &mine) == 0, stat(path, &named) == 0,
           mine.st_dev == named.st_dev, mine.st_ino == named.st_ino {
            unlink(path)
        }
        file.closeDescriptor()
    }

    /// The URL of the server running on `home`, or nil when none is: no
    /// file, a file whose lock is free (its server ended without removing
    /// it), or one that does not hold a URL.
    public static func url(in home: DataHome) -> String? {
        let descriptor = open(home.path + "/" + fileName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            // Nobody holds it: the server that wrote it is gone.
            flock(descriptor, LOCK_UN)
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self)
        guard text.hasSuffix("\n"), let line = text.split(separator: "\n").first,
              line.hasPrefix("http://") || line.hasPrefix("https://"),
              line.allSatisfy({ $0.isASCII && !$0.isWhitespace }) else { return nil }
        return String(line)
    }
}
