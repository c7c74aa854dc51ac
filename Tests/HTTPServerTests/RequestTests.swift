import Foundation
@testable import HTTPServer
import TestSupport
import XCTest

/// The Request value handlers get, from real requests.
final class RequestTests: XCTestCase {
    /// A server whose every route records the Request it got.
    private func recordingServer(_ seen: Locked<[Request]>) throws -> TestServer {
        var router = Router()
        for pattern in ["/", "/echo/{name}", "/echo/{name}/more"] {
            router.route(.get, pattern) { request in
                seen.withValue { $0.append(request) }
                return .text("ok")
            }
        }
        return try TestServer(router: router)
    }

    func testMethodTargetPathQueryHeadersAndAddressReachTheHandler() throws {
        let seen = Locked<[Request]>([])
        let server = try recordingServer(seen)
        let result = Curl.run(["-H", "X-Custom: one", "-H", "x-custom: two", "-H", "User-Agent: tester",
                               server.url("/echo/%ED%9A%8C%EC%9D%98%20a?q=a%20b&tag=x&tag=y&flag&sp=a+b&empty=")])
        XCTAssertEqual(result.status, 200, result.stderr)
        let request = try XCTUnwrap(seen.current.first)
        XCTAssertEqual(request.method, .get)
        XCTAssertEqual(request.target, "/echo/%ED%9A%8C%EC%9D%98%20a?q=a%20b&tag=x&tag=y&flag&sp=a+b&empty=")
        XCTAssertEqual(request.path, ["echo", "회의 a"])
        XCTAssertEqual(request.routePattern, "/echo/{name}")
        XCTAssertEqual(request.parameters, ["name": "회의 a"])
        XCTAssertEqual(request.query.map(\.name), ["q", "tag", "tag", "flag", "sp", "empty"])
        XCTAssertEqual(request.queryValue("q"), "a b")
        XCTAssertEqual(request.queryValues("tag"), ["x", "y"])
        XCTAssertEqual(request.queryValue("flag"), "")
        XCTAssertEqual(request.queryValue("sp"), "a b", "+ is a space in a query")
        XCTAssertNil(request.queryValue("absent"))
        XCTAssertEqual(request.headers.values(for: "X-CUSTOM"), ["one", "two"])
        XCTAssertEqual(request.headers["user-agent"], "tester")
        XCTAssertEqual(request.httpVersion, "HTTP/1.1")
        XCTAssertTrue(request.remoteAddress.hasPrefix("127.0.0.1:"), request.remoteAddress)
        XCTAssertNotEqual(request.remoteAddress, "127.0.0.1:\(server.port)")
    }

    func testBadTargetsAre400BeforeAnyHandlerRuns() throws {
        let seen = Locked<[Request]>([])
        let server = try recordingServer(seen)
        for target in ["/echo/a%zz", "/echo/%ff", "/echo/a%00b", "/echo/..", "/echo/%2e%2e/more", "/echo/a%2Fb",
                       "/echo/%0d%0aX:%20y", "/echo/x?q=%", "/echo/x?q=%ff", "/echo/x?q=a%00"] {
            let result = Curl.run(["--path-as-is", server.url(target)])
            XCTAssertEqual(result.status, 400, target)
        }
        XCTAssertEqual(seen.current.count, 0, "a handler ran for a bad target")
        server.assertStillServes()
    }

    func testAroundWrapsTheHookAndABodilessRouteInOneCallAndABodysRouteInAnother() throws {
        let events = Locked<[String]>([])
        var router = Router()
        router.route(.get, "/item") { _ in
            events.withValue { $0.append("route") }
            return .text("item")
        }
        router.collect(.post, "/items", bodyLimit: 100) { _, body in
            events.withValue { $0.append("route \(body.count)") }
            return .text("stored")
        }
        router.beforeEach = { request in
            events.withValue { $0.append("hook") }
            return request.headers["Authorization"] == "no" ? Response(status: 401, body: .bytes(Array("no\n".utf8))) : nil
        }
        router.around = { body in
            events.withValue { $0.append("begin") }
            defer { events.withValue { $0.append("end") } }
            return try body()
        }
        let server = try TestServer(router: router)
        func take() -> [String] { events.withValue { events in defer { events = [] }; return events } }
        XCTAssertEqual(Curl.run([server.url("/item")]).text, "item")
        XCTAssertEqual(take(), ["begin", "hook", "route", "end"], "a bodiless request: hook and route in one call")
        XCTAssertEqual(Curl.run(["-X", "POST", "--data-binary", "abc", server.url("/items")]).text, "stored")
        XCTAssertEqual(take(), ["begin", "hook", "end", "begin", "route 3", "end"],
                       "with a body: the hook before it arrives, the route after, each in a call of its own")
        XCTAssertEqual(Curl.run(["-X", "POST", server.url("/items")]).text, "stored")
        XCTAssertEqual(take(), ["begin", "hook", "route 0", "end"], "a collecting route without a body is bodiless")
        XCTAssertEqual(Curl.run(["-H", "Authorization: no", server.url("/item")]).status, 401)
        XCTAssertEqual(take(), ["begin", "hook", "end"])
        XCTAssertEqual(Curl.run([server.url("/missing")]).status, 404)
        XCTAssertEqual(take(), ["begin", "hook", "end"], "the hook runs for a path no route has, in the call")
        XCTAssertEqual(Curl.run(["-X", "DELETE", server.url("/item")]).status, 405)
        XCTAssertEqual(take(), ["begin", "hook", "end"])
    }

    func testTheHookSeesEveryRequestFirstAndCanAnswerInstead() throws {
        let seen = Locked<[String]>([])
        var router = Router()
        router.route(.get, "/open") { _ in .text("open") }
        router.route(.get, "/private") { _ in .text("secret") }
        router.beforeEach = { request in
            seen.withValue { $0.append("\(request.method) \(request.routePattern ?? "none")") }
            if request.routePattern == "/open" { return nil }
            guard request.headers["Authorization"] == "Bearer good" else {
                return Response(status: 401, headers: ["WWW-Authenticate": "Bearer"], body: .bytes(Array("no\n".utf8)))
            }
            return nil
        }
        let server = try TestServer(router: router)
        XCTAssertEqual(Curl.run([server.url("/open")]).text, "open")
        let refused = Curl.run([server.url("/private")])
        XCTAssertEqual(refused.status, 401)
        XCTAssertEqual(refused.header("WWW-Authenticate"), "Bearer")
        XCTAssertEqual(refused.header("X-Content-Type-Options"), "nosniff", "defaults reach hook answers too")
        XCTAssertEqual(Curl.run(["-H", "Authorization: Bearer good", server.url("/private")]).text, "secret")
        XCTAssertEqual(Curl.run([server.url("/missing")]).status, 401, "the hook answers before the 404")
        XCTAssertEqual(Curl.run(["-H", "Authorization: Bearer good", server.url("/missing")]).status, 404)
        XCTAssertEqual(seen.current, ["GET /open", "GET /private", "GET /private", "GET none", "GET none"])
    }

    func testAHandlersThrownErrorGoesThroughTheErrorResponse() throws {
        struct Broken: Error {}
        var router = Router()
        router.route(.get, "/teapot") { _ in throw HTTPError(status: 418, en: "short and stout", ko: "작고 통통한") }
        router.route(.get, "/broken") { _ in throw Broken() }
        let server = try TestServer(router: router) { configuration in
            configuration.errorResponse = { error, request in
                let status = (error as? HTTPError)?.status ?? 500
                let kind = error is Broken ? "broken" : "http"
                return .text("{\"error\": \"\(kind)\", \"path\": \"\(request?.target ?? "-")\"}", status: status,
                             contentType: "application/json")
            }
        }
        let teapot = Curl.run([server.url("/teapot")])
        XCTAssertEqual(teapot.status, 418)
        XCTAssertEqual(teapot.text, #"{"error": "http", "path": "/teapot"}"#)
        let broken = Curl.run([server.url("/broken")])
        XCTAssertEqual(broken.status, 500)
        XCTAssertEqual(broken.header("Content-Type"), "application/json")
        XCTAssertEqual(broken.text, #"{"error": "broken", "path": "/broken"}"#)
        let missing = Curl.run(["-X", "DELETE", server.url("/teapot")])
        XCTAssertEqual(missing.status, 405)
        XCTAssertEqual(missing.header("Allow"), "GET, HEAD", "Allow survives an app renderer that leaves it out")
    }

    func testEachRequestIsLoggedWithMethodPathStatusBytesAndTime() throws {
        var router = Router()
        router.route(.get, "/hello") { _ in .text("hello world") }
        let server = try TestServer(router: router)
        _ = Curl.run([server.url("/hello?token=secret")])
        _ = Curl.run(["-I", server.url("/hello")])
        _ = Curl.run([server.url("/nowhere")])
        _ = Curl.run(["-H", "X-Big: " + String(repeating: "a", count: 20_000), server.url("/hello")])
        let connection = try server.connect()
        connection.send("GET /a\u{1B}[2J%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        _ = connection.readToEnd()
        let records = server.waitForRecords(5)
        XCTAssertEqual(records.map(\.method), ["GET", "HEAD", "GET", "GET", "GET"])
        XCTAssertEqual(records.map(\.path), ["/hello", "/hello", "/nowhere", "/hello", "/a%1B[2J%zz"],
                       "no query, no raw control character")
        XCTAssertEqual(records.map(\.status), [200, 200, 404, 431, 400])
        XCTAssertEqual(records.map(\.bytes)[0...1], [11, 0])
        XCTAssertTrue(records.allSatisfy { $0.outcome == .completed && $0.milliseconds >= 0 && $0.milliseconds < 20_000 })
    }
}
