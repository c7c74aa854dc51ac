import Foundation
@testable import HTTPServer
import MemoCore
import TestSupport
import XCTest

/// A started Server on 127.0.0.1 and a port the system chose, recording
/// every request's log record; stopped when released.
final class TestServer {
    let server: Server
    let records = Locked<[RequestRecord]>([])
    let port: UInt16

    init(router: Router, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        var configuration = ServerConfiguration()
        configuration.threadCount = 2
        let records = self.records
        configuration.requestLog = { record in records.withValue { $0.append(record) } }
        configure(&configuration)
        server = Server(configuration: configuration, router: router)
        try server.start()
        port = server.boundAddress!.port
    }

    deinit {
        server.stop(gracePeriod: 1)
    }

    /// `http://127.0.0.1:PORT` followed by `path`.
    func url(_ path: String) -> String {
        let host = server.boundAddress!.family == .ipv6 ? "[\(server.boundAddress!.host)]" : server.boundAddress!.host
        return "http://\(host):\(port)\(path)"
    }

    func connect() throws -> RawHTTPConnection {
        try RawHTTPConnection(host: server.boundAddress!.host, port: port)
    }

    /// Sends `request` on a new connection and reads until the server closes it.
    func raw(_ request: String) throws -> [UInt8] {
        let connection = try connect()
        connection.send(request)
        return connection.readToEnd()
    }

    /// The records once at least `count` have arrived (libmicrohttpd reports
    /// a request over just after its response is written).
    func waitForRecords(_ count: Int, file: StaticString = #filePath, line: UInt = #line) -> [RequestRecord] {
        let arrived = waitUntil { self.records.current.count >= count }
        XCTAssertTrue(arrived, "\(records.current.count) of \(count) log records arrived", file: file, line: line)
        return records.current
    }

    /// A normal GET of `path` still answers `status`.
    func assertStillServes(_ path: String = "/", status: Int = 200, file: StaticString = #filePath, line: UInt = #line) {
        let result = Curl.run([url(path)])
        XCTAssertEqual(result.status, status, "after the attack: \(result.stderr)", file: file, line: line)
    }
}

/// Polls `condition` every 10 ms for up to `timeout` seconds: for waiting
/// on what another thread or process does, never as a fixed sleep.
func waitUntil(timeout: Double = 20, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// A router with `GET /` answering "ok", for tests about everything else.
func helloRouter() -> Router {
    var router = Router()
    router.route(.get, "/") { _ in .text("ok") }
    return router
}
