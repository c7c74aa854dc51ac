import Foundation
import TestSupport
import XCTest

/// `GET /api/v1/events`: changes by anyone as events, `timer.finished` at a
/// countdown's end. Every wait reads the stream until the event arrives.
final class EventRouteTests: XCTestCase {
    private func subscribe(_ server: APITestServer) throws -> (RawHTTPConnection, String) {
        let connection = try RawHTTPConnection(host: "127.0.0.1", port: server.server.boundAddress!.port)
        connection.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(server.server.boundAddress!.port)\r\n"
                        + "Authorization: Bearer \(server.token)\r\n\r\n")
        let opened = try XCTUnwrap(connection.read(until: ": connected"))
        return (connection, String(decoding: opened, as: UTF8.self))
    }

    func testChangesByTheServerAndByTheCommandLineArriveAsEvents() throws {
        let server = try APITestServer()
        server.onboard()
        let (events, head) = try subscribe(server)
        XCTAssertTrue(head.contains("text/event-stream"), head)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "by http"}"#).status, 201)
        let first = String(decoding: try XCTUnwrap(events.read(until: "by http")), as: UTF8.self)
        XCTAssertTrue(first.contains("event: todo\ndata: {\"action\":\"created\",\"id\":1,"), first)

        let memoapp = Memoapp(home: server.home.path)
        XCTAssertEqual(memoapp.run("memo", "add", "by the terminal").status, 0)
        let second = String(decoding: try XCTUnwrap(events.read(until: "by the terminal")), as: UTF8.self)
        XCTAssertTrue(second.contains("event: memo\ndata: {\"action\":\"created\""), second)

        XCTAssertEqual(memoapp.run("todo", "rm", "1").status, 0)
        let third = String(decoding: try XCTUnwrap(events.read(until: "\"item\":null")), as: UTF8.self)
        XCTAssertTrue(third.contains("event: todo\ndata: {\"action\":\"removed\",\"id\":1,\"item\":null}"), third)

        XCTAssertEqual(memoapp.run("onboard", "reset").status, 0)
        let fourth = String(decoding: try XCTUnwrap(events.read(until: "event: onboarding")), as: UTF8.self)
        XCTAssertTrue(fourth.contains("event: onboarding"), fourth)
    }

    func testAClientResumingAfterChangesNoOneHeardIsToldToResync() throws {
        let server = try APITestServer()
        server.onboard()
        XCTAssertEqual(Memoapp(home: server.home.path).run("todo", "add", "while no one listened").status, 0)
        let port = server.server.boundAddress!.port
        let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
        connection.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                        + "Authorization: Bearer \(server.token)\r\nLast-Event-ID: 0\r\n\r\n")
        let text = String(decoding: try XCTUnwrap(connection.read(until: "event: resync")), as: UTF8.self)
        XCTAssertTrue(text.contains("event: resync"), text)
        // From then on, changes come one by one again.
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "heard"}"#).status, 201)
        XCTAssertNotNil(connection.read(until: "heard"))
    }

    func testACountdownsEndIsSentAsItHappens() throws {
        let server = try APITestServer()
        server.onboard()
        let (events, _) = try subscribe(server)
        let created = server.curl("POST", "/api/v1/timers", json: #"{"duration": 0.3, "label": "egg"}"#)
        XCTAssertEqual(created.status, 201, created.text)
        let text = String(decoding: try XCTUnwrap(events.read(until: "\"state\":\"finished\"")), as: UTF8.self)
        // The announcement comes before the stored change's own `timer` event.
        XCTAssertTrue(text.contains("event: timer.finished\ndata: {\"id\":1,"), text)
        XCTAssertFalse(text.contains("\"action\":\"changed\""), text)
        // Stored finished, as every front end sees it.
        XCTAssertEqual(server.curl("GET", "/api/v1/timers/1").object["state"] as? String, "finished")
    }

    func testACountdownStartedByTheCommandLineIsAnnouncedToo() throws {
        let server = try APITestServer()
        server.onboard()
        let (events, _) = try subscribe(server)
        XCTAssertEqual(Memoapp(home: server.home.path).run("timer", "start", "1s").status, 0)
        let text = String(decoding: try XCTUnwrap(events.read(until: "event: timer.finished")), as: UTF8.self)
        XCTAssertTrue(text.contains("event: timer\ndata: {\"action\":\"created\""), text)
    }
}
