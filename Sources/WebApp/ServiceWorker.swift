import HTTPServer
#if DEBUG
import Glibc
#endif

/// The service worker as served at `/sw.js`: `Web/sw.js` after two lines
/// the server writes, the shell's files and a version made of their ETags.
/// A browser looks for a new worker by comparing `/sw.js` byte for byte, so
/// a binary whose page changed in any file (or whose system script did) is
/// a new worker, with a cache of its own; an unchanged one is not.
enum ServiceWorker {
    /// The served file, made once (a system script installed after the
    /// first request joins the shell at the server's next start).
    static func file() -> WebApp.File {
        made
    }

    private static let made: WebApp.File = {
        var tags = ["/": WebApp.files["index.html"]!.etag]
        for (name, file) in WebApp.files where name != "sw.js" && name != "index.html" { tags["/app/" + name] = file.etag }
        for script in SystemScript.all.values {
            if let file = script.file() { tags["/app/" + script.name] = file.etag }
        }
        let paths = tags.keys.sorted()
        let version = EntityTag.of(Array((paths.map { $0 + " " + tags[$0]! } + testVersion()).joined(separator: "\n").utf8))
            .filter { $0 != "\"" }
        let quoted = paths.map { "'\($0)'" }.joined(separator: ", ")
        let header = "const VERSION = '\(version)';\nconst SHELL = [\(quoted)];\n"
        let bytes = Array(header.utf8) + WebApp.files["sw.js"]!.bytes
        return WebApp.File(name: "sw.js", contentType: WebApp.contentType(of: "sw.js"), bytes: bytes, etag: EntityTag.of(bytes))
    }()

    /// A debug build's way for the browser tests to serve a new version of
    /// the page without building a second binary: a server started with
    /// `MEMOAPP_TEST_PAGE_VERSION` set writes it into the version, so the
    /// browser meets a new worker (Tests/Browser/test_pwa_versions.py). A
    /// release build has no such variable: its version is its files'.
    private static func testVersion() -> [String] {
        #if DEBUG
        if let value = getenv("MEMOAPP_TEST_PAGE_VERSION") { return ["test " + String(cString: value)] }
        #endif
        return []
    }
}
