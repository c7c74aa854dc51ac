import Foundation
@testable import HTTPServer
import MemoCore
import TestSupport
import XCTest

/// Request bodies stream to receivers piece by piece, within their route's limit.
final class RequestBodyTests: XCTestCase {
    /// Writes the body to a temporary file beside `destination` and renames
    /// it into place at the end; on abandon removes it, so nothing half-done
    /// stays. For the destination `loud` it refuses a `!` in the body.
    final class FileReceiver: RequestBodyReceiver, @unchecked Sendable {
        let destination: String
        let temporary: String
        let events: Locked<[String]>
        let chunkSizes = Locked<[Int]>([])
        private let handle: FileHandle

        init(destination: String, events: Locked<[String]>) {
            self.destination = destination
            temporary = destination + ".partial"
            self.events = events
            _ = FileManager.default.createFile(atPath: temporary, contents: nil)
            handle = FileHandle(forWritingAtPath: temporary)!
            events.withValue { $0.append("created") }
        }

        func receive(_ chunk: UnsafeRawBufferPointer) throws {
            if destination.hasSuffix("/loud") && chunk.contains(UInt8(ascii: "!")) {
                throw HTTPError(status: 422, en: "no exclamation marks", ko: "느낌표 금지")
            }
            chunkSizes.withValue { $0.append(chunk.count) }
            handle.write(Data(chunk))
        }

        func finish() throws -> Response {
            try handle.close()
            try FileManager.default.moveItem(atPath: temporary, toPath: destination)
            events.withValue { $0.append("finished") }
            return .text("stored \(chunkSizes.current.reduce(0, +))\n", status: 201)
        }

        func abandon(_ reason: BodyFailure) {
            try? handle.close()
            try? FileManager.default.removeItem(atPath: temporary)
            events.withValue { $0.append("abandoned \(reason)") }
        }
    }

    private var folder: TemporaryDirectory!
    private var events: Locked<[String]>!
    private var receivers: Locked<[FileReceiver]>!

    override func setUp() {
        folder = TemporaryDirectory()
        events = Locked([])
        receivers = Locked([])
    }

    private func uploadServer(limit: UInt64, _ configure: (inout ServerConfiguration) -> Void = { _ in }) throws -> TestServer {
        var router = Router()
        let folder = folder!, events = events!, receivers = receivers!
        router.upload(.put, "/files/{name}", bodyLimit: limit) { request in
            let receiver = FileReceiver(destination: folder.appending(request.parameters["name"]!), events: events)
            receivers.withValue { $0.append(receiver) }
            return receiver
        }
        router.collect(.post, "/echo", bodyLimit: 1024) { _, body in .bytes(body, contentType: "application/octet-stream") }
        router.route(.post, "/nobody") { _ in .text("fine") }
        router.route(.get, "/") { _ in .text("ok") }
        return try TestServer(router: router, configure)
    }

    private var leftovers: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    func testABodyReachesTheReceiverInPiecesWhileItIsStillArriving() throws {
        let server = try uploadServer(limit: 64 << 20)
        let connection = try server.connect()
        let half = [UInt8](repeating: UInt8(ascii: "a"), count: 200_000)
        connection.send("PUT /files/one HTTP/1.1\r\nHost: x\r\nContent-Length: \(half.count * 2)\r\n\r\n")
        connection.send(half)
        // The receiver has the first half before the second is even sent.
        XCTAssertTrue(waitUntil { self.receivers.current.first?.chunkSizes.current.reduce(0, +) == half.count })
        connection.send(half)
        let response = try XCTUnwrap(connection.read(until: "stored"))
        XCTAssertEqual(RawHTTPConnection.status(of: response), 201)
        let sizes = try XCTUnwrap(receivers.current.first).chunkSizes.current
        XCTAssertEqual(sizes.reduce(0, +), 400_000)
        XCTAssertGreaterThan(sizes.count, 2)
        XCTAssertLessThanOrEqual(sizes.max()!, 64 * 1024, "a piece is at most a connection's buffer, never the body")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder.appending("one"))).count, 400_000)
        XCTAssertEqual(events.current, ["created", "finished"])
    }

    func testALargeUploadFromCurlArrivesWhole() throws {
        let server = try uploadServer(limit: 64 << 20)
        let source = folder.appending("source.bin")
        let content = Data((0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) })
        try content.write(to: URL(fileURLWithPath: source))
        let result = Curl.run(["-T", source, server.url("/files/copy")])
        XCTAssertEqual(result.status, 201, result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: folder.appending("copy"))), content)
    }

    func testAContentLengthOverTheLimitIs413BeforeAnyBodyIsRead() throws {
        let server = try uploadServer(limit: 1000)
        let connection = try server.connect()
        // No body follows: the answer must not wait for one.
        connection.send("PUT /files/big HTTP/1.1\r\nHost: x\r\nContent-Length: 1001\r\nExpect: 100-continue\r\n\r\n")
        let response = try XCTUnwrap(connection.read(until: "\r\n\r\n"))
        XCTAssertEqual(RawHTTPConnection.status(of: response), 413)
        XCTAssertTrue(receivers.current.isEmpty, "no receiver is made for a body refused by its length")
        let withCurl = Curl.run(["-X", "PUT", "--data-binary", String(repeating: "x", count: 5000), server.url("/files/b")])
        XCTAssertEqual(withCurl.status, 413)
        XCTAssertEqual(Curl.run(["--data", "x", server.url("/nobody")]).status, 413, "a route without a body takes none")
        XCTAssertEqual(Curl.run(["-X", "POST", server.url("/nobody")]).text, "fine")
        XCTAssertEqual(leftovers, [])
        server.assertStillServes()
    }

    func testABodyOverTheLimitSentWithoutWaitingIsReadSoItsClientHearsTheRefusal() throws {
        let server = try uploadServer(limit: 1000)
        // Three megabytes, more than the kernel holds for an unread socket:
        // answered before they are read, the client's sending ends in a reset.
        let body = Data(repeating: 0x78, count: 3 << 20)
        let refused = Curl.run(["-X", "PUT", "-H", "Expect:", "--data-binary", "@-", server.url("/files/big")], input: body)
        XCTAssertEqual(refused.status, 413, refused.stderr)
        XCTAssertTrue(receivers.current.isEmpty, "no receiver is made for a body refused by its length")
        XCTAssertEqual(leftovers, [])
        server.assertStillServes()
    }

    func testAChunkedBodyThatOutgrowsTheLimitIsAbandonedAndRefused() throws {
        let server = try uploadServer(limit: 100_000)
        let source = folder.appending("chunked.bin")
        try Data(repeating: 0x61, count: 150_000).write(to: URL(fileURLWithPath: source))
        let refused = Curl.run(["-T", source, "-H", "Transfer-Encoding: chunked", server.url("/files/c")])
        XCTAssertEqual(refused.status, 413, refused.stderr)
        XCTAssertTrue(waitUntil { self.events.current.contains("abandoned tooLarge") })

        // Far past the limit the connection is closed rather than read on.
        let flood = try server.connect()
        flood.send("PUT /files/d HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x62, count: 0x10000) + Array("\r\n".utf8)
        // 400 pieces are 25.6 MiB, past the 16 MiB a refused body may run on.
        var sent = 0
        while sent < 400 && flood.send(chunk) { sent += 1 }
        XCTAssertTrue(flood.closesWithin(20), "the server kept reading a body it refused")
        XCTAssertLessThan(sent, 400)
        XCTAssertTrue(waitUntil { self.events.current.filter { $0 == "abandoned tooLarge" }.count == 2 })
        XCTAssertEqual(leftovers.filter { $0.hasSuffix(".partial") }, [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appending("c")))
        server.assertStillServes()
    }

    func testACutOffBodyIsAbandonedAndLeavesNothingHalfDone() throws {
        let server = try uploadServer(limit: 1 << 20)
        let connection = try server.connect()
        connection.send("PUT /files/cut HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
        connection.send([UInt8](repeating: 0x63, count: 50_000))
        XCTAssertTrue(waitUntil { self.receivers.current.first?.chunkSizes.current.reduce(0, +) == 50_000 })
        shutdown(connection.descriptor, Int32(SHUT_RDWR))
        XCTAssertTrue(waitUntil { self.events.current.contains("abandoned cutOff") }, "\(events.current)")
        XCTAssertEqual(leftovers, [], "no partial file, no file in place")
        let records = server.waitForRecords(1)
        XCTAssertEqual(records.last?.outcome, .failed)
        server.assertStillServes()
    }

    func testABodyThatStallsIsAbandonedAtTheTimeOut() throws {
        let server = try uploadServer(limit: 1 << 20) { $0.connectionTimeout = 1 }
        let connection = try server.connect()
        connection.send("PUT /files/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\nabc")
        XCTAssertTrue(connection.closesWithin(20))
        XCTAssertTrue(waitUntil { self.events.current.contains("abandoned timedOut") }, "\(events.current)")
        XCTAssertEqual(leftovers, [])
    }

    func testABodyTrickledSlowerThanItsTimeAllowsIsCutAndAbandoned() throws {
        // A second and a half for this body: half a second, and one more
        // for its million bytes at a million a second.
        let server = try uploadServer(limit: 1 << 20) {
            $0.bodyTimeAllowance = 0.5
            $0.bodyMinimumRate = 1_000_000
        }
        let connection = try server.connect()
        connection.send("PUT /files/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        // A byte every tenth of a second, never silent for the time-out; the
        // whole body would take 28 hours.
        var isClosed = false
        for _ in 0..<300 where !isClosed {
            connection.send("a")
            isClosed = connection.closesWithin(0.1)
        }
        XCTAssertTrue(isClosed, "the trickle was cut")
        XCTAssertTrue(waitUntil { self.events.current.contains("abandoned timedOut") }, "\(events.current)")
        XCTAssertEqual(server.waitForRecords(1).first?.outcome, .timedOut)
        XCTAssertEqual(leftovers, [])
        server.assertStillServes()
    }

    func testAHeadWhoseBodyNeverComesIsCutAtItsTimeBeforeTheTimeOut() throws {
        let server = try uploadServer(limit: 1 << 20) {
            $0.bodyTimeAllowance = 0.5
            $0.connectionTimeout = 3600
        }
        let connection = try server.connect()
        connection.send("PUT /files/never HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n")
        XCTAssertTrue(connection.closesWithin(20), "cut at about half a second, not at the hour's time-out")
        XCTAssertTrue(waitUntil { self.events.current.contains("abandoned timedOut") }, "\(events.current)")
    }

    func testABodyThatKeepsItsPaceArrivesAlthoughItTakesLongerThanTheAllowance() throws {
        // Two and a half seconds for 4,096 bytes at 2,048 a second; sent in
        // four pieces a fifth of a second apart, past the half second.
        let server = try uploadServer(limit: 1 << 20) {
            $0.bodyTimeAllowance = 0.5
            $0.bodyMinimumRate = 2048
        }
        let connection = try server.connect()
        connection.send("PUT /files/steady HTTP/1.1\r\nHost: x\r\nContent-Length: 4096\r\n\r\n")
        for _ in 0..<4 {
            connection.send([UInt8](repeating: UInt8(ascii: "s"), count: 1024))
            usleep(200_000)
        }
        let answer = String(decoding: connection.read(until: "stored 4096") ?? [], as: UTF8.self)
        XCTAssertTrue(answer.hasPrefix("HTTP/1.1 201"), answer)
    }

    func testAReceiverThatThrowsIsAbandonedAndItsErrorAnswered() throws {
        let server = try uploadServer(limit: 1 << 20)
        let result = Curl.run(["-X", "PUT", "--data-binary", "fine so far! then not", server.url("/files/loud")])
        XCTAssertEqual(result.status, 422)
        XCTAssertEqual(result.text, "no exclamation marks\n")
        XCTAssertTrue(waitUntil { self.events.current.contains("abandoned refused") })
        XCTAssertEqual(leftovers, [])
    }

    func testCollectedBodiesArriveWholeWithinTheirLimit() throws {
        let server = try uploadServer(limit: 0)
        XCTAssertEqual(Curl.run(["--data-binary", "{\"title\": \"회의\"}", server.url("/echo")]).text, "{\"title\": \"회의\"}")
        let chunked = Curl.run(["-H", "Transfer-Encoding: chunked", "--data-binary", String(repeating: "z", count: 1024),
                                server.url("/echo")])
        XCTAssertEqual(chunked.body.count, 1024)
        XCTAssertEqual(Curl.run(["--data-binary", String(repeating: "z", count: 1025), server.url("/echo")]).status, 413)
        XCTAssertEqual(Curl.run(["-H", "Transfer-Encoding: chunked", "--data-binary", String(repeating: "z", count: 1025),
                                 server.url("/echo")]).status, 413)
        XCTAssertEqual(Curl.run(["-X", "POST", server.url("/echo")]).body.count, 0)
    }
}
