import Foundation
@testable import HTTPServer
import MemoCore
import TestSupport
import XCTest

/// Start, the bound address, a graceful stop, and an idle server's CPU.
final class ServerLifecycleTests: XCTestCase {
    func testPortZeroGetsAnEphemeralPortKnownAfterStart() throws {
        let server = Server(configuration: ServerConfiguration(), router: helloRouter())
        XCTAssertNil(server.boundAddress)
        try server.start()
        let address = try XCTUnwrap(server.boundAddress)
        XCTAssertEqual(address.host, "127.0.0.1")
        XCTAssertNotEqual(address.port, 0)
        XCTAssertEqual(Curl.run(["http://\(address)/"]).text, "ok")
        server.stop()
        XCTAssertNotEqual(Curl.run(["http://\(address)/"]).exitCode, 0, "still answering after stop")
    }

    func testIPv6LoopbackServes() throws {
        let server = try TestServer(router: echoAddressRouter()) { $0.address = try! ListenAddress(parsing: "[::1]:0") }
        XCTAssertEqual(server.server.boundAddress?.family, .ipv6)
        let result = Curl.run(["-g", server.url("/")])
        XCTAssertEqual(result.status, 200, result.stderr)
        XCTAssertTrue(result.text.hasPrefix("[::1]:"), result.text)
        XCTAssertNotEqual(Curl.run(["http://127.0.0.1:\(server.port)/"]).status, 200, "IPv6 alone, not dual stack")
    }

    func testAnAddressInUseFailsWithTheReason() throws {
        let first = try TestServer(router: helloRouter())
        var configuration = ServerConfiguration()
        configuration.address = .loopback(port: first.port)
        let second = Server(configuration: configuration, router: helloRouter())
        XCTAssertThrowsError(try second.start()) { error in
            let error = error as! MemoError
            XCTAssertEqual(error.kind, .internalFailure)
            XCTAssertTrue(error.message.en.contains("127.0.0.1:\(first.port)"), error.message.en)
            XCTAssertTrue(error.message.en.contains("Address already in use"), error.message.en)
            XCTAssertTrue(error.message.ko.contains("Address already in use"), error.message.ko)
        }
        first.assertStillServes()
    }

    func testLimitsOutOfRangeAreRefusedAtStart() {
        let cases: [(String, (inout ServerConfiguration) -> Void)] = [
            ("thread count", { $0.threadCount = 0 }),
            ("thread count", { $0.threadCount = 65 }),
            ("time-out", { $0.connectionTimeout = 0 }),
            ("connection limit", { $0.connectionLimit = 0 }),
            ("connections per address", { $0.connectionsPerAddress = 0 }),
            ("memory per connection", { $0.memoryPerConnection = 1024 }),
            ("request header limit", { $0.requestHeaderLimit = 40 * 1024 }),
            ("memory trim delay", { $0.memoryTrimDelay = 0 }),
            ("allocator arena limit", { $0.allocatorArenaLimit = 0 }),
        ]
        for (name, change) in cases {
            var configuration = ServerConfiguration()
            change(&configuration)
            let server = Server(configuration: configuration, router: helloRouter())
            XCTAssertThrowsError(try server.start(), name) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, name)
                XCTAssertTrue((error as? MemoError)?.message.en.contains(name) ?? false, "\(error)")
            }
            XCTAssertNil(server.boundAddress)
        }
    }

    func testLibmicrohttpdIsLoadedOnFirstUseAndAMissingOneNamesItsPackage() throws {
        XCTAssertNoThrow(try LibMicroHTTPD.loaded())
        guard case .failure(let error) = LibMicroHTTPD.load("libmicrohttpd-absent.so.12") else {
            return XCTFail("an absent library loaded")
        }
        for text in [error.message.en, error.message.ko] {
            XCTAssertTrue(text.contains("libmicrohttpd-absent.so.12") && text.contains("libmicrohttpd12"), text)
        }
    }

    func testStopLetsHandlersInFlightFinish() throws {
        let gate = Gate()
        var router = helloRouter()
        router.route(.get, "/slow") { _ in
            gate.arriveAndWait()
            return .text("finished")
        }
        let server = try TestServer(router: router) { $0.threadCount = 4 }
        let results = Locked<[CurlResult]>([])
        let group = DispatchGroup()
        for count in 1...3 {
            // One at a time: a thread blocked in a handler takes no new
            // connections, so each request lands on a thread of its own.
            DispatchQueue.global().async(group: group) {
                let result = Curl.run([server.url("/slow")])
                results.withValue { $0.append(result) }
            }
            XCTAssertTrue(waitUntil { gate.waiting == count })
        }
        let stopped = Locked<Int?>(nil)
        Thread.detachNewThread {
            let unfinished = server.server.stop(gracePeriod: 30)
            stopped.withValue { $0 = unfinished }
        }
        // No new connections once the stop began.
        XCTAssertTrue(waitUntil { (try? RawHTTPConnection(port: server.port)) == nil })
        XCTAssertNil(stopped.current, "stop returned while handlers were running")
        let opened = Date()
        gate.open()
        XCTAssertTrue(waitUntil { stopped.current != nil })
        print("stop with 3 handlers in flight: \(Int(Date().timeIntervalSince(opened) * 1000)) ms after they were let go")
        XCTAssertEqual(stopped.current, 0)
        group.wait()
        XCTAssertEqual(results.current.map(\.status), [200, 200, 200])
        XCTAssertEqual(results.current.map(\.text), ["finished", "finished", "finished"])
    }

    func testDuringAStopOpenConnectionsGet503AndAnUploadInFlightFinishes() throws {
        let received = Locked(0)
        var router = helloRouter()
        router.upload(.put, "/upload", bodyLimit: 1000) { _ in CountingReceiver(received) }
        let server = try TestServer(router: router)
        let kept = try server.connect()  // keep-alive, opened before the stop
        kept.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNotNil(kept.read(until: "ok"))
        // An upload half sent is a request in flight that holds no thread.
        let upload = try server.connect()
        upload.send("PUT /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n12345")
        XCTAssertTrue(waitUntil { received.current == 5 })
        let stopped = Locked<Int?>(nil)
        Thread.detachNewThread {
            let unfinished = server.server.stop(gracePeriod: 30)
            stopped.withValue { $0 = unfinished }
        }
        XCTAssertTrue(waitUntil { (try? RawHTTPConnection(port: server.port)) == nil })
        kept.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = String(decoding: kept.readToEnd(), as: UTF8.self)
        XCTAssertTrue(refused.hasPrefix("HTTP/1.1 503"), refused)
        XCTAssertTrue(refused.contains("Connection: close"), refused)
        XCTAssertNil(stopped.current, "stop returned with an upload in flight")
        upload.send("67890")
        let answer = String(decoding: upload.readToEnd(), as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("got 10"), answer)
        XCTAssertTrue(waitUntil { stopped.current != nil })
        XCTAssertEqual(stopped.current, 0)
    }

    func testStopGivesUpWaitingAfterTheGracePeriod() throws {
        let arrived = Locked(false)
        var router = helloRouter()
        router.route(.get, "/stuck") { _ in
            arrived.withValue { $0 = true }
            usleep(1_500_000)
            return .text("too late")
        }
        let server = try TestServer(router: router)
        let result = Locked<CurlResult?>(nil)
        DispatchQueue.global().async { result.withValue { $0 = Curl.run([server.url("/stuck")]) } }
        XCTAssertTrue(waitUntil { arrived.current })
        XCTAssertEqual(server.server.stop(gracePeriod: 0.1), 1, "one request was unfinished at the deadline")
        XCTAssertTrue(waitUntil { result.current != nil })
        XCTAssertNotEqual(result.current?.text, "too late")
        XCTAssertEqual(server.server.stop(), 0, "a second stop does nothing")
    }

    func testAnIdleServerUsesNoCPU() throws {
        let before = Set(threadIDs())
        let server = try TestServer(router: helloRouter()) {
            $0.threadCount = 4
            $0.memoryTrimDelay = 0.05
        }
        server.assertStillServes()
        // Idle from the quiet spell's trim on (see the tests below).
        _ = server.waitForRecords(1)
        XCTAssertTrue(waitUntil { server.server.memoryTrimCount >= 1 })
        let serverThreads = Set(threadIDs()).subtracting(before)
        XCTAssertGreaterThanOrEqual(serverThreads.count, 4, "the pool's threads")
        let start = serverThreads.map(threadActivity)
        // A measurement window, not a wait for something: polling every
        // second or faster would show as switches or ticks here.
        sleep(2)
        let end = serverThreads.map(threadActivity)
        let switches = zip(start, end).map { $1.switches - $0.switches }.reduce(0, +)
        let ticks = zip(start, end).map { $1.ticks - $0.ticks }.reduce(0, +)
        XCTAssertLessThanOrEqual(switches, 1, "the server's threads woke \(switches) times while idle")
        XCTAssertLessThanOrEqual(ticks, 1, "the server's threads used \(ticks) clock ticks while idle")
    }

    func testAQuietSpellAfterRequestsGivesFreedMemoryBack() throws {
        let server = try TestServer(router: helloRouter()) { $0.memoryTrimDelay = 0.05 }
        XCTAssertEqual(server.server.memoryTrimCount, 0, "nothing to give back before any request")
        for _ in 0..<3 { server.assertStillServes() }
        XCTAssertTrue(waitUntil { server.server.memoryTrimCount >= 1 }, "trimmed once the requests were over")
    }

    func testOneTrimPerQuietSpellAndNoneWithoutRequests() {
        let trim = IdleMemoryTrim(delay: 0.05)
        trim.start()
        defer { trim.stop() }
        trim.noteActivity()
        trim.noteActivity()
        XCTAssertTrue(waitUntil { trim.trimCount == 1 })
        // Four times the delay without requests: nothing new to give back.
        usleep(200_000)
        XCTAssertEqual(trim.trimCount, 1, "one trim per quiet spell")
        trim.noteActivity()
        XCTAssertTrue(waitUntil { trim.trimCount == 2 }, "the next spell after more requests")
    }

    func testMemoryTrimCanBeTurnedOff() throws {
        let server = try TestServer(router: helloRouter()) { $0.memoryTrimDelay = nil }
        server.assertStillServes()
        usleep(200_000)
        XCTAssertEqual(server.server.memoryTrimCount, 0)
    }

    /// A router whose `/` answers the client's address.
    private func echoAddressRouter() -> Router {
        var router = Router()
        router.route(.get, "/") { request in .text(request.remoteAddress) }
        return router
    }

    private func threadIDs() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    }

    /// A thread's context switches (voluntary and not) and CPU clock ticks (user and system).
    private func threadActivity(_ id: String) -> (switches: Int, ticks: Int) {
        let status = (try? String(contentsOfFile: "/proc/self/task/\(id)/status", encoding: .utf8)) ?? ""
        let switches = status.split(separator: "\n").filter { $0.contains("ctxt_switches") }
            .compactMap { Int($0.filter(\.isNumber)) }.reduce(0, +)
        let stat = (try? String(contentsOfFile: "/proc/self/task/\(id)/stat", encoding: .utf8)) ?? ""
        // Fields after the command name's closing parenthesis; utime and stime are the 14th and 15th.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        return (switches, ticks)
    }
}

/// Counts the body bytes it receives and answers how many there were.
final class CountingReceiver: RequestBodyReceiver, @unchecked Sendable {
    let received: Locked<Int>

    init(_ received: Locked<Int>) {
        self.received = received
    }

    func receive(_ chunk: UnsafeRawBufferPointer) throws {
        received.withValue { $0 += chunk.count }
    }

    func finish() throws -> Response {
        .text("got \(received.current)")
    }

    func abandon(_ reason: BodyFailure) {}
}
