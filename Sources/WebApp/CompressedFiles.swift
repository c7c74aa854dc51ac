import HTTPServer
import MemoCore

/// The page's text files gzipped, made once per file on first request and
/// kept: the page is about 165 KB of JavaScript, CSS and HTML as written
/// (comments and all), which gzip sends in about a third, and a phone on a
/// slow network waits for every byte of the first load. Made on demand
/// rather than at start, so a server that never serves the page never loads
/// zlib; kept, since the files never change while the binary runs.
final class CompressedFiles: @unchecked Sendable {
    static let shared = CompressedFiles()

    private let monitor = Monitor()
    /// By ETag of the identity bytes; nil where gzip does not pay or zlib is
    /// missing (the file is then served as it is).
    private var made: [String: [UInt8]?] = [:]

    /// `file`'s bytes gzipped, or nil when they are not worth compressing
    /// (images are compressed already; short files gain less than gzip's
    /// header) or zlib cannot be loaded.
    func gzipped(_ file: WebApp.File) -> [UInt8]? {
        guard Self.isWorthCompressing(file) else { return nil }
        if let known = monitor.locked({ made[file.etag] }) { return known }
        // Compressed outside the lock: two first requests at once may both
        // compress, and both give the same bytes.
        let bytes = try? Gzip.compress(file.bytes, level: 9)
        let kept: [UInt8]? = bytes.flatMap { $0.count < file.bytes.count ? $0 : nil }
        monitor.locked { made[file.etag] = kept }
        return kept
    }

    static func isWorthCompressing(_ file: WebApp.File) -> Bool {
        file.bytes.count >= Gzip.minimumBytes && !file.contentType.hasPrefix("image/png")
    }

    /// The gzipped representation's validator: a strong ETag names one
    /// representation's bytes, so the compressed one needs its own (RFC 9110
    /// 8.8.3), made from the identity one so either is recognised.
    static func etag(of file: WebApp.File) -> String {
        String(file.etag.dropLast()) + "-gz\""
    }
}
