import Foundation
@testable import HTTPServer
import TestSupport
import XCTest

/// Server-Sent Events over real connections.
final class EventStreamTests: XCTestCase {
    private func eventServer(_ stream: EventStream, _ configure: (inout ServerConfiguration) -> Void = { _ in })
        throws -> TestServer {
        var router = Router()
        router.route(.get, "/events") { request in stream.response(for: request) }
        router.route(.get, "/") { _ in .text("ok") }
        return try TestServer(router: router, configure)
    }

    /// A raw connection subscribed to /events (with `lastEventID`), once the
    /// stream is open, and what it read so far (replayed events come with
    /// the opening comment).
    private func subscribe(_ server: TestServer, lastEventID: String? = nil) throws -> RawHTTPConnection {
        try subscribeReading(server, lastEventID: lastEventID).connection
    }

    private func subscribeReading(_ server: TestServer, lastEventID: String? = nil) throws
        -> (connection: RawHTTPConnection, opening: String) {
        let connection = try server.connect()
        let resume = lastEventID.map { "Last-Event-ID: \($0)\r\n" } ?? ""
        connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\(resume)\r\n")
        let opening = try XCTUnwrap(connection.read(until: ": connected\n\n"))
        let text = String(decoding: opening, as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("HTTP/1.1 200 OK\r\n"), text)
        XCTAssertTrue(text.contains("Content-Type: text/event-stream; charset=utf-8\r\n"), text)
        XCTAssertTrue(text.contains("Cache-Control: no-store\r\n"), text)
        return (connection, text)
    }

    /// `text` without the chunked encoding's size lines, which split an
    /// event bigger than one chunk.
    private func unchunked(_ text: String) -> String {
        text.replacingOccurrences(of: "(^|\r\n)[0-9a-fA-F]+\r\n", with: "", options: .regularExpression)
    }

    private func text(_ bytes: [UInt8]?) -> String {
        String(decoding: bytes ?? [], as: UTF8.self)
    }

    func testEventsReachSubscribersAsTheyArePublished() throws {
        let stream = EventStream()
        let server = try eventServer(stream)
        let first = try subscribe(server)
        let second = try subscribe(server)
        XCTAssertTrue(waitUntil { stream.subscriberCount == 2 })
        XCTAssertEqual(stream.publish(data: "line one\nline two\r\nline three\rend"), 1)
        XCTAssertEqual(stream.publish(data: "{\"id\": 7}", event: "todo"), 2)
        for connection in [first, second] {
            let received = text(connection.read(until: "data: {\"id\": 7}\n\n"))
            XCTAssertTrue(received.contains("id: 1\ndata: line one\ndata: line two\ndata: line three\ndata: end\n\n"),
                          received)
            XCTAssertTrue(received.contains("id: 2\nevent: todo\ndata: {\"id\": 7}\n\n"), received)
        }
        XCTAssertEqual(stream.upcomingID, 3)
    }

    func testLastEventIDReplaysWhatAReconnectingClientMissed() throws {
        var configuration = EventStream.Configuration()
        configuration.historyLimit = 3
        configuration.firstID = 100
        let stream = EventStream(configuration)
        let server = try eventServer(stream)
        for number in 100...104 { stream.publish(data: "event \(number)") }

        let (recent, opening) = try subscribeReading(server, lastEventID: "102")
        stream.publish(data: "live 105")
        let caughtUp = opening + text(recent.read(until: "live 105"))
        XCTAssertTrue(caughtUp.contains("id: 103\ndata: event 103\n\nid: 104\ndata: event 104\n\n"), caughtUp)
        XCTAssertFalse(caughtUp.contains("event 102"))

        // 101 is older than the three kept (103, 104, 105): the client must refetch.
        for stale in ["101", "999", "abc", ""] {
            let (connection, opening) = try subscribeReading(server, lastEventID: stale)
            let resync = opening + (opening.contains("data: \n\n") ? "" : text(connection.read(until: "data: \n\n")))
            XCTAssertTrue(resync.contains("id: 105\nevent: resync\ndata: \n\n"), "\(stale): \(resync)")
            XCTAssertFalse(resync.contains("event 104"))
        }
        let (current, currentOpening) = try subscribeReading(server, lastEventID: " 105 ")
        stream.publish(data: "live 106")
        let onlyLive = currentOpening + text(current.read(until: "live 106"))
        XCTAssertFalse(onlyLive.contains("resync") || onlyLive.contains("id: 105"), onlyLive)
    }

    func testHeartbeatsKeepStreamsAliveAndFindClientsThatLeft() throws {
        var configuration = EventStream.Configuration()
        configuration.heartbeatInterval = 0.1
        let stream = EventStream(configuration)
        let server = try eventServer(stream)
        let staying = try subscribe(server)
        var leaving = [try subscribe(server), try subscribe(server)]
        XCTAssertTrue(waitUntil { stream.subscriberCount == 3 })
        leaving.removeAll()  // closes both sockets; their suspended connections notice nothing yet
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1 }, "\(stream.subscriberCount) subscribers left")
        XCTAssertNotNil(staying.read(until: ": heartbeat\n\n"))
        XCTAssertNotNil(staying.read(until: ": heartbeat\n\n"), "heartbeats keep coming")
    }

    /// A client that hangs up frees its connection at once, not at the next
    /// heartbeat (an hour away here): with the connection limit full of
    /// departed subscribers, new clients would otherwise wait. (Three rounds
    /// of 8 need 24 connections of the 12 allowed; the 4 spare ones cover
    /// libmicrohttpd's count dropping just after the subscriber leaves.)
    func testClientsThatHangUpAreLetGoAtOnce() throws {
        var configuration = EventStream.Configuration()
        configuration.heartbeatInterval = 3600
        let stream = EventStream(configuration)
        let server = try eventServer(stream) { $0.connectionLimit = 12 }
        for round in 1...3 {
            var subscribers = try (0..<8).map { _ in try subscribe(server) }
            XCTAssertTrue(waitUntil { stream.subscriberCount == 8 }, "round \(round)")
            subscribers.removeAll()  // closes every socket while its connection is suspended
            XCTAssertTrue(waitUntil { stream.subscriberCount == 0 },
                          "round \(round): \(stream.subscriberCount) departed subscribers still held")
        }
        XCTAssertTrue(waitUntil { server.server.departureWatchCount == 0 })
        // Each slot is free again: a new subscriber and a plain request are served.
        let staying = try subscribe(server)
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1 })
        server.assertStillServes()
        stream.publish(data: "still here")
        XCTAssertNotNil(staying.read(until: "data: still here\n\n"))
    }

    /// A client that hangs up just as an event reaches it is let go too.
    func testAClientLeavingWhileEventsFlowIsLetGo() throws {
        var configuration = EventStream.Configuration()
        configuration.heartbeatInterval = 3600
        let stream = EventStream(configuration)
        let server = try eventServer(stream)
        var leaving: RawHTTPConnection? = try subscribe(server)
        let staying = try subscribe(server)
        XCTAssertTrue(waitUntil { stream.subscriberCount == 2 })
        for number in 0..<50 {
            stream.publish(data: "event \(number)")
            if number == 25 { leaving = nil }
        }
        XCTAssertNil(leaving)
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1 })
        XCTAssertNotNil(staying.read(until: "data: event 49\n\n"))
    }

    func testASubscriberTooFarBehindIsCut() throws {
        var configuration = EventStream.Configuration()
        configuration.backlogLimit = 4096
        let stream = EventStream(configuration)
        let server = try eventServer(stream)
        let connection = try subscribe(server)
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1 })
        // The client reads nothing: once the kernel's buffers are full, the
        // events wait in the server, and past the limit it cuts the client.
        let event = String(repeating: "x", count: 64 << 10)
        for _ in 0..<400 where stream.subscriberCount == 1 { stream.publish(data: event) }
        let rest = connection.readToEnd()
        XCTAssertFalse(text(rest).contains("0\r\n\r\n"), "a cut stream must not end like a complete one")
        XCTAssertTrue(waitUntil { stream.subscriberCount == 0 })
        server.assertStillServes()
    }

    func testOneEventBiggerThanTheBacklogReachesEveryoneWhoKeepsUp() throws {
        var configuration = EventStream.Configuration()
        configuration.backlogLimit = 4096
        let stream = EventStream(configuration)
        let server = try eventServer(stream)
        let readers = [try subscribe(server), try subscribe(server)]
        XCTAssertTrue(waitUntil { stream.subscriberCount == 2 })
        let big = String(repeating: "x", count: 64 << 10)
        let id = stream.publish(data: big, event: "todo")
        stream.publish(data: "after", event: "todo")
        for reader in readers {
            let received = text(reader.read(until: "data: after\n\n"))
            XCTAssertTrue(unchunked(received).contains("id: \(id)\nevent: todo\ndata: \(big)\n\n"), "the big event whole")
        }
        XCTAssertEqual(stream.subscriberCount, 2, "nobody was cut")

        // A client resuming from before it gets it too, instead of being
        // cut at once again and again.
        let (resumed, opening) = try subscribeReading(server, lastEventID: String(id - 1))
        stream.publish(data: "live", event: "todo")
        let replayed = opening + text(resumed.read(until: "data: live\n\n"))
        XCTAssertTrue(unchunked(replayed).contains("id: \(id)\nevent: todo\ndata: \(big)\n\n"))
        XCTAssertFalse(replayed.contains("resync"))
    }

    func testAResumeThatMissedMoreThanTheBacklogIsToldToResync() throws {
        var configuration = EventStream.Configuration()
        configuration.backlogLimit = 4096
        let stream = EventStream(configuration)
        let server = try eventServer(stream)
        let first = stream.publish(data: "small")
        for _ in 0..<4 { stream.publish(data: String(repeating: "y", count: 2048)) }
        let newest = stream.publish(data: "last")
        let (connection, opening) = try subscribeReading(server, lastEventID: String(first))
        let received = opening + (opening.contains("resync") ? "" : text(connection.read(until: "data: \n\n")))
        XCTAssertTrue(received.contains("id: \(newest)\nevent: resync\ndata: \n\n"), received)
        XCTAssertFalse(received.contains("yyyy"), "no replay that would cut it")
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1 }, "it stays subscribed")
    }

    func testClosingTheStreamEndsItsSubscriptionsNormally() throws {
        let stream = EventStream()
        let server = try eventServer(stream)
        let connection = try subscribe(server)
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1 })
        stream.close()
        XCTAssertNotNil(connection.read(until: "0\r\n\r\n"), "the chunked body ends")
        let later = try server.connect()
        later.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertTrue(text(later.read(until: "0\r\n\r\n")).contains(": connected"), "a later subscriber ends at once")
        XCTAssertTrue(waitUntil { stream.subscriberCount == 0 })
    }

    func testHeadOfAnEventStreamIsItsHeadAlone() throws {
        let stream = EventStream()
        let server = try eventServer(stream)
        let head = Curl.run(["-I", server.url("/events")])
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.header("Content-Type"), "text/event-stream; charset=utf-8")
        XCTAssertEqual(stream.subscriberCount, 0)
    }

    /// The memory this takes is measured by scripts/http-demo-figures and the
    /// serve section of scripts/bench, on a server process of its own: the
    /// test runner's RSS holds every earlier test's too.
    func testAThousandSubscribersAllHearAnEventAndAStopEndsThemAll() throws {
        raiseOpenFileLimit(to: 4096)
        let stream = EventStream()
        let server = try eventServer(stream) { $0.connectionLimit = 2000 }
        var connections: [RawHTTPConnection] = []
        for _ in 0..<1000 {
            let connection = try server.connect()
            connection.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
            connections.append(connection)
        }
        for connection in connections { XCTAssertNotNil(connection.read(until: ": connected\n\n")) }
        XCTAssertTrue(waitUntil { stream.subscriberCount == 1000 })
        stream.publish(data: "to everyone")
        for connection in connections { XCTAssertNotNil(connection.read(until: "data: to everyone\n\n")) }
        XCTAssertEqual(server.server.stop(gracePeriod: 10), 0)
        for connection in connections { XCTAssertNotNil(connection.read(until: "0\r\n\r\n")) }
    }
}

/// Raises this process's soft limit on open descriptors to `wanted` (or the
/// hard limit): a test holding both ends of many connections needs more
/// than the usual 1024.
func raiseOpenFileLimit(to wanted: UInt) {
    var limit = rlimit()
    getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    if limit.rlim_cur < wanted {
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
