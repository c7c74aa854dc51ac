import Foundation
import HTTPServer
import MemoCore
import MemoKit
@testable import MemoServer
import SQLite
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
        // Read up to the announcement, not up to the first "finished": on a
        // loaded machine the feed may tell of the creation only after the
        // end, and its `created` event then already shows the timer finished.
        let text = String(decoding: try XCTUnwrap(events.read(until: "event: timer.finished\ndata: {\"id\":1,")),
                          as: UTF8.self)
        // The announcement comes before the stored change's own `timer` event.
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

    func testAnUndoByTheCommandLineArrivesAsTheChangeItMakes() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        XCTAssertEqual(memoapp.run("todo", "add", "soon undone").status, 0)
        let (events, _) = try subscribe(server)
        XCTAssertEqual(memoapp.run("undo").status, 0)
        let text = String(decoding: try XCTUnwrap(events.read(until: "\"item\":null")), as: UTF8.self)
        XCTAssertTrue(text.contains("event: todo\ndata: {\"action\":\"removed\",\"id\":1,\"item\":null}"), text)
        // Undoing a removal brings the item back.
        XCTAssertEqual(memoapp.run("memo", "add", "soon removed").status, 0)
        XCTAssertNotNil(events.read(until: "soon removed"))
        XCTAssertEqual(memoapp.run("memo", "rm", "1").status, 0)
        XCTAssertNotNil(events.read(until: "event: memo\ndata: {\"action\":\"removed\""))
        XCTAssertEqual(memoapp.run("undo").status, 0)
        let again = String(decoding: try XCTUnwrap(events.read(until: "soon removed")), as: UTF8.self)
        XCTAssertTrue(again.contains("event: memo\ndata: {\"action\":\"created\",\"id\":1,"), again)
    }

    func testSeveralChangesOfOneItemBetweenTwoLooksAreOneEvent() throws {
        let server = try APITestServer()
        server.onboard()
        let (events, _) = try subscribe(server)
        let connection = try MemoDatabase.open(in: server.home)
        try connection.writeTransaction {
            try connection.execute("INSERT INTO todos (title, created_at, updated_at) VALUES ('first', 0, 0)")
            try connection.execute("UPDATE todos SET title = 'second' WHERE id = 1")
            try connection.execute("INSERT INTO memos (text, created_at, updated_at) VALUES ('made', 0, 0)")
            try connection.execute("DELETE FROM memos WHERE id = 1")
            try connection.execute("INSERT INTO memos (text, created_at, updated_at) VALUES ('kept', 0, 0)")
        }
        let text = String(decoding: try XCTUnwrap(events.read(until: "\"kept\"")), as: UTF8.self)
        XCTAssertEqual(text.components(separatedBy: "event: todo\n").count - 1, 1, text)
        XCTAssertTrue(text.contains("event: todo\ndata: {\"action\":\"created\",\"id\":1,"), text)
        XCTAssertTrue(text.contains("\"title\":\"second\""), text)
        // A memo made and removed between two looks was never there for a client.
        XCTAssertEqual(text.components(separatedBy: "event: memo\n").count - 1, 1, text)
        XCTAssertTrue(text.contains("event: memo\ndata: {\"action\":\"created\",\"id\":2,"), text)
    }

    func testAnImportIntoTheEmptyHomeIsOneResync() throws {
        let server = try APITestServer()
        server.onboard()
        let source = server.directory.appending("source")
        let other = Memoapp(home: source)
        XCTAssertEqual(other.run("onboard", "skip").status, 0)
        for index in 1...5 {
            XCTAssertEqual(other.run("todo", "add", "imported \(index)").status, 0)
            XCTAssertEqual(other.run("memo", "add", "imported memo \(index)").status, 0)
        }
        let export = server.directory.appending("export.json")
        XCTAssertEqual(other.run("export", "-o", export).status, 0)
        let (events, _) = try subscribe(server)
        let memoapp = Memoapp(home: server.home.path)
        XCTAssertEqual(memoapp.run("import", export).status, 0)
        let text = String(decoding: try XCTUnwrap(events.read(until: "event: resync")), as: UTF8.self)
        XCTAssertFalse(text.contains("event: todo"), text)
        XCTAssertFalse(text.contains("event: memo"), text)
        // Then one by one again.
        XCTAssertEqual(memoapp.run("todo", "add", "after the import").status, 0)
        let next = String(decoding: try XCTUnwrap(events.read(until: "after the import")), as: UTF8.self)
        XCTAssertTrue(next.contains("event: todo\ndata: {\"action\":\"created\",\"id\":6,"), next)
    }

    func testAClientFurtherBehindThanTheLogKeepsIsToldToResync() throws {
        let server = try APITestServer()
        server.onboard()
        let (events, _) = try subscribe(server)
        // More changes in one transaction than the log keeps: by the time the
        // feed looks, the entries after its position are pruned.
        let connection = try MemoDatabase.open(in: server.home)
        try connection.writeTransaction {
            try connection.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO todos (title, created_at, updated_at) SELECT 'bulk ' || i, 0, 0 FROM n
                """, ChangeLog.keptEntries + 1_500)
        }
        let text = String(decoding: try XCTUnwrap(events.read(until: "event: resync")), as: UTF8.self)
        XCTAssertFalse(text.contains("event: todo"), text)
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "heard"}"#).status, 201)
        XCTAssertNotNil(events.read(until: "heard"))
    }

    /// The feed's start reads where the log ends and the onboarding state,
    /// and nothing of the items: it starts on a database whose item tables
    /// cannot be read at all.
    func testTheFeedStartsWithoutReadingTheItems() throws {
        let directory = TemporaryDirectory()
        let home = DataHome(path: directory.appending("home"))
        let connection = try MemoDatabase.open(in: home)
        for index in 1...3 {
            try connection.execute("INSERT INTO todos (title, created_at, updated_at) VALUES (?, 0, 0)", "to-do \(index)")
        }
        let newest = try ChangeLog.newestPosition(in: connection)
        for table in ["todos", "memos", "voice_memos", "timers", "timer_spans", "timer_laps"] {
            try connection.execute("ALTER TABLE \(table) RENAME TO hidden_\(table)")
        }
        let pool = try MemoDatabase.openPool(in: home, readers: 2)
        let services = ServerServices(home: home, pool: pool, clock: SystemWallClock(), isLoopback: true, maximumUpload: 1)
        let feed = ChangeFeed(services: services, stream: EventStream(EventStream.Configuration()))
        try feed.prime()
        XCTAssertEqual(feed.position, newest)
        XCTAssertEqual(newest.newest?.seq, 3)
    }

    func testARestoreOverTheServersDataIsOneResync() throws {
        let server = try APITestServer()
        server.onboard()
        let memoapp = Memoapp(home: server.home.path)
        XCTAssertEqual(memoapp.run("todo", "add", "replaced").status, 0)
        let other = Memoapp(home: server.directory.appending("other"))
        XCTAssertEqual(other.run("onboard", "skip").status, 0)
        XCTAssertEqual(other.run("memo", "add", "restored").status, 0)
        let backup = server.directory.appending("backup")
        XCTAssertEqual(other.run("backup", backup).status, 0)
        let (events, _) = try subscribe(server)
        XCTAssertEqual(memoapp.run("restore", backup, "--force").status, 0)
        let text = String(decoding: try XCTUnwrap(events.read(until: "event: resync")), as: UTF8.self)
        XCTAssertFalse(text.contains("\"action\""), text)
        XCTAssertEqual(memoapp.run("memo", "add", "after the restore").status, 0)
        let next = String(decoding: try XCTUnwrap(events.read(until: "after the restore")), as: UTF8.self)
        XCTAssertTrue(next.contains("event: memo\ndata: {\"action\":\"created\",\"id\":2,"), next)
    }
}
