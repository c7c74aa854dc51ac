import HTTPServer
import MemoCore

/// The web app: the page's HTML, CSS and JavaScript modules, embedded in the
/// binary by SwiftPM (`resources: [.embedInCode("Web")]` generates one byte
/// array per file, without Foundation), and the routes that serve them:
/// `GET /` (the page) and `GET /app/{file}`. It knows nothing of memoapp's
/// API: the page talks to `/api/v1` like any other client.
public enum WebApp {
    /// The page may run only its own scripts and styles (no inline script or
    /// style, nothing from elsewhere), talk only to its own origin, and not be
    /// framed. `media-src blob:` plays a recording before upload.
    public static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
        "media-src 'self' blob:", "connect-src 'self'", "manifest-src 'self'", "worker-src 'self'", "base-uri 'none'",
        "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// One served file.
    public struct File: Sendable {
        public let name: String
        public let contentType: String
        public let bytes: [UInt8]
        /// A strong validator: a hash of the bytes, quoted.
        public let etag: String
    }

    /// Every file of `Web/`, by name. A file added there must be added here
    /// too (`WebAppTests` compares this list with the folder).
    public static let files: [String: File] = {
        var files: [String: File] = [:]
        for (name, bytes) in [
            ("index.html", PackageResources.index_html), ("style.css", PackageResources.style_css),
            ("main.js", PackageResources.main_js), ("api.js", PackageResources.api_js),
            ("dom.js", PackageResources.dom_js), ("events.js", PackageResources.events_js),
            ("i18n.js", PackageResources.i18n_js), ("splash.js", PackageResources.splash_js),
            ("onboarding.js", PackageResources.onboarding_js), ("todos.js", PackageResources.todos_js),
            ("memos.js", PackageResources.memos_js), ("timers.js", PackageResources.timers_js),
            ("voice.js", PackageResources.voice_js), ("paging.js", PackageResources.paging_js),
            ("editing.js", PackageResources.editing_js), ("repeat.js", PackageResources.repeat_js),
            ("markdown.js", PackageResources.markdown_js), ("itemview.js", PackageResources.itemview_js),
            ("folding.js", PackageResources.folding_js), ("search.js", PackageResources.search_js),
            ("shortcuts.js", PackageResources.shortcuts_js), ("trimhandles.js", PackageResources.trimhandles_js),
            ("store.js", PackageResources.store_js), ("sync.js", PackageResources.sync_js),
            ("offline.js", PackageResources.offline_js), ("sw.js", PackageResources.sw_js),
            ("manifest.webmanifest", PackageResources.manifest_webmanifest), ("icon.svg", PackageResources.icon_svg),
            ("icon-192.png", PackageResources.icon_192_png), ("icon-512.png", PackageResources.icon_512_png),
            ("icon-maskable-512.png", PackageResources.icon_maskable_512_png),
            ("fieldnotes.js", PackageResources.fieldnotes_js), ("conflictview.js", PackageResources.conflictview_js),
            ("signout.js", PackageResources.signout_js), ("bulk.js", PackageResources.bulk_js),
            ("signinlink.js", PackageResources.signinlink_js), ("voicequeue.js", PackageResources.voicequeue_js),
            ("fullcopy.js", PackageResources.fullcopy_js), ("offlinetimers.js", PackageResources.offlinetimers_js),
            ("wav.js", PackageResources.wav_js),
        ] {
            files[name] = File(name: name, contentType: contentType(of: name), bytes: bytes, etag: EntityTag.of(bytes))
        }
        return files
    }()

    /// The routes `GET /`, `GET /sw.js` and `GET /app/{file}` (HEAD too, through GET).
    public static func addRoutes(to router: inout Router) {
        router.route(.get, "/", description("The web app's page", mediaType: "text/html")) { request in
            response(for: "index.html", request: request)
        }
        // At the root: a service worker controls only the paths under its
        // own, and the page is `/`.
        router.route(.get, "/sw.js", description("The web app's service worker (the app shell offline)",
                                                 mediaType: "text/javascript")) { request in
            response(for: ServiceWorker.file(), request: request)
        }
        var file = description("The web app's scripts and styles", mediaType: nil)
        let names = (Array(files.keys) + Array(SystemScript.all.keys)).sorted()
        file.path = [.init("file", .object([("type", .string("string")), ("enum", .strings(names))]),
                           "one of the page's files, or a library a Debian package installs (SystemScript)")]
        file.answers.append(.init(404, "a library whose Debian package is not installed", mediaType: "application/json"))
        router.route(.get, "/app/{file}", file) { request in
            let name = request.parameters["file"] ?? ""
            if let script = SystemScript.all[name] {
                guard let file = script.file() else {
                    throw HTTPError(status: 404, en: "\(script.package) is not installed (scripts/install-deps installs it)",
                                    ko: "\(script.package) 패키지가 설치되어 있지 않습니다 (scripts/install-deps가 설치합니다)")
                }
                return response(for: file, request: request)
            }
            // Refused as the server refuses anything, in its error format
            // (the app's JSON envelope), not as a page of its own.
            // The worker is served at the root only (`ServiceWorker`).
            guard files[name] != nil, name != "sw.js" else { throw HTTPError(status: 404, en: "Not found", ko: "찾을 수 없습니다") }
            return response(for: name, request: request)
        }
    }

    /// What the two routes answer: a file (200, or 304 for its ETag).
    static func description(_ summary: String, mediaType: String?) -> RouteDescription {
        let etag = (name: "ETag", schema: JSON.object([("type", .string("string"))]), isRequired: true)
        return RouteDescription(summary, headers: [.init("If-None-Match", .object([("type", .string("string"))]))],
                                answers: [.init(200, "the file", mediaType: mediaType, headers: [etag]),
                                          .init(304, "not modified", headers: [etag])],
                                isPublic: true)
    }

    /// Whether a request's path is one of the web app's (for an access hook:
    /// the page itself is public, so that it can sign in).
    public static func serves(path: [String]) -> Bool {
        path.isEmpty || path == ["sw.js"] || (path.count == 2 && path[0] == "app")
    }

    /// The file's response, `304` when `If-None-Match` names its ETag, `404`
    /// for a name that is not one of the files.
    public static func response(for name: String, request: Request) -> Response {
        guard let file = files[name] else {
            return Response.text("not found\n", status: 404)
        }
        return response(for: file, request: request)
    }

    /// `file`'s response, `304` when `If-None-Match` names its ETag.
    static func response(for file: File, request: Request) -> Response {
        var headers: Headers = [
            "Content-Type": file.contentType,
            "ETag": file.etag,
            // Revalidated on every use (an ETag check), never served stale
            // after an upgrade of the binary.
            "Cache-Control": "no-cache",
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        ]
        if file.contentType.hasPrefix("text/html") {
            headers.add("Content-Security-Policy", contentSecurityPolicy)
            headers.add("X-Frame-Options", "DENY")
        }
        guard CompressedFiles.isWorthCompressing(file) else {
            if let wanted = request.headers["If-None-Match"], EntityTag.list(wanted, names: file.etag) {
                return Response(status: 304, headers: headers)
            }
            return Response(status: 200, headers: headers, body: .bytes(file.bytes))
        }
        // Gzipped for a client that takes it (every browser), with its own
        // validator; `Vary` tells caches between that the answer depends on
        // Accept-Encoding.
        headers.add("Vary", "Accept-Encoding")
        let gzipped = Gzip.isAccepted(by: request.headers["Accept-Encoding"]) ? CompressedFiles.shared.gzipped(file) : nil
        if gzipped != nil { headers.set("ETag", CompressedFiles.etag(of: file)) }
        if let wanted = request.headers["If-None-Match"], EntityTag.list(wanted, names: headers["ETag"]!) {
            return Response(status: 304, headers: headers)
        }
        guard let gzipped else { return Response(status: 200, headers: headers, body: .bytes(file.bytes)) }
        headers.add("Content-Encoding", "gzip")
        return Response(status: 200, headers: headers, body: .bytes(gzipped))
    }

    static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        if name.hasSuffix(".js") { return "text/javascript; charset=utf-8" }
        if name.hasSuffix(".svg") { return "image/svg+xml" }
        if name.hasSuffix(".png") { return "image/png" }
        if name.hasSuffix(".webmanifest") { return "application/manifest+json" }
        return "application/octet-stream"
    }
}
