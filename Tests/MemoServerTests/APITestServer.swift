import Foundation
import HTTPServer
import MemoCore
import MemoKit
@testable import MemoServer
import SQLite
import TestSupport
import XCTest

/// A MemoServer on 127.0.0.1 and a port the system chose, over a fresh
/// data home, with one API token; stopped when released.
final class APITestServer {
    let directory = TemporaryDirectory()
    let home: DataHome
    let server: MemoServer
    let token: String

    init(allowedOrigin: String? = nil, extraRoutes: (inout Router) -> Void = { _ in }) throws {
        home = DataHome(path: directory.appending("home"))
        token = try AccessTokens(connection: MemoDatabase.open(in: home)).create(name: "test", at: SystemWallClock().now()).secret
        var configuration = ServerConfiguration()
        configuration.threadCount = 2
        server = try MemoServer(home: home, configuration: configuration, allowedOrigin: allowedOrigin,
                                extraRoutes: extraRoutes)
        try server.start()
    }

    deinit {
        server.stop(gracePeriod: 1)
    }

    func url(_ path: String) -> String { server.url + path }

    /// curl with the token (unless `authorized` is false) and any further arguments.
    func curl(_ method: String = "GET", _ path: String, json: String? = nil, authorized: Bool = true,
              headers: [String] = []) -> CurlResult {
        var arguments = ["-X", method]
        if authorized { arguments += ["-H", "Authorization: Bearer \(token)"] }
        for header in headers { arguments += ["-H", header] }
        if json != nil { arguments += ["-H", "Content-Type: application/json", "--data-binary", "@-"] }
        return Curl.run(arguments + [url(path)], input: json.map { Data($0.utf8) })
    }

    /// Completes the onboarding through the API.
    func onboard(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(curl("POST", "/api/v1/onboarding/skip").status, 200, file: file, line: line)
    }
}

extension CurlResult {
    var object: [String: Any] {
        (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
    }

    var array: [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: body)) as? [[String: Any]] ?? []
    }

    var errorCode: String? {
        (object["error"] as? [String: Any])?["code"] as? String
    }
}
