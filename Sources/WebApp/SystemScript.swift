#if canImport(Glibc)
import Glibc
#endif
import HTTPServer
import MemoCore

/// A JavaScript library a Debian package installs, served to the page as one
/// of its files and read from the package's file on first use, as memoapp
/// loads libsndfile: nothing of it is copied into memoapp, a security update
/// of the package reaches the page at the server's next start, and the
/// first load of the page stays small (the page asks for it only when it
/// needs it). Without the package the page is told 404 and does without.
public struct SystemScript: Sendable {
    /// The name the page asks for (`/app/{name}`).
    public let name: String
    /// Where the package installs it.
    public let path: String
    /// The Debian package that installs it (`scripts/install-deps` does).
    public let package: String

    /// markdown-it (Debian's `libjs-markdown-it`): the memo view renders a
    /// memo's Markdown with it (`markdown.js`), raw HTML off.
    public static let markdownIt = SystemScript(name: "markdown-it.js", path: "/usr/share/javascript/markdown-it/markdown-it.js",
                                                package: "libjs-markdown-it")

    /// Every system script, by the name the page asks for.
    public static let all: [String: SystemScript] = [markdownIt.name: markdownIt]

    /// The file, read once; nil while the package is not installed (asked
    /// again next time, so installing it needs no restart).
    public func file() -> WebApp.File? {
        SystemScriptCache.shared.file(for: self)
    }
}

/// The system scripts read so far. A server reads each once (its bytes
/// and ETag kept): a new version of the package is served after a restart.
final class SystemScriptCache: @unchecked Sendable {
    static let shared = SystemScriptCache()
    private let monitor = Monitor()
    private var files: [String: WebApp.File] = [:]

    func file(for script: SystemScript) -> WebApp.File? {
        if let file = monitor.locked({ files[script.name] }) { return file }
        guard let bytes = Self.contents(of: script.path) else { return nil }
        let file = WebApp.File(name: script.name, contentType: WebApp.contentType(of: script.name), bytes: bytes,
                               etag: EntityTag.of(bytes))
        monitor.locked { files[script.name] = file }
        return file
    }

    /// A regular file's bytes, or nil when it cannot be read whole.
    static func contents(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG,
              status.st_size < 16 << 20 else { return nil }
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }
}
