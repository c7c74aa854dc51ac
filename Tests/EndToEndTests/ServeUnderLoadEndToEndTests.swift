import Foundation
import TestSupport
import XCTest

/// Issue 29, finding 5, as reproduced: while one client kept the server
/// busy (exports it did not read, expensive requests side by side), the
/// health check took 1.2 to 3.8 s, and stalled exports grew the WAL from
/// 49 KB to 25 MB, since each held its read snapshot until its client had
/// read it all. Health must answer within 100 ms whatever one client does,
/// and an export's snapshot must end once the database is read, however
/// slowly its client reads. Waits are for conditions, with generous bounds.
final class ServeUnderLoadEndToEndTests: XCTestCase {
    private var memoapp: Memoapp!
    private var serving: ServingMemoapp!
    private var port: UInt16 = 0
    private var token = ""

    override func setUpWithError() throws {
        memoapp = Memoapp(home: TemporaryDirectory().appending("home"))
        memoapp.onboard()
        token = memoapp.run("--json", "token", "create", "load").object()["token"] as? String ?? ""
        // 100,000 to-dos, one in three with a note of two kilobytes: a
        // database of about 100 MB, whose examination (the doctor) takes
        // a few tenths of a second and whose export, tens of megabytes.
        memoappSQL(memoapp.databasePath, """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
            INSERT INTO todos (title, note, tags, created_at, updated_at, uid)
            SELECT 'task ' || i, CASE WHEN i % 3 = 0 THEN printf('%.2000c', 'n') END, 'work t' || (i % 50),
                   1.8e9 + i, 1.8e9 + i, lower(hex(randomblob(16))) FROM n
            """)
        serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        port = try XCTUnwrap(serving.url.split(separator: ":").last.flatMap { UInt16($0) })
    }

    override func tearDown() {
        if let serving { XCTAssertEqual(serving.stop(signal: SIGTERM), 0) }
        serving = nil
    }

    func testHealthAnswersWithin100MillisecondsWhateverOneClientDoes() throws {
        let isAttacking = Locked(true)
        let exclusions = (0..<32).map { "tag=-x\($0)" }.joined(separator: "&")
        let attacks = Array(repeating: "/api/v1/doctor", count: 14)
            + ["/api/v1/todos?status=all&limit=500&\(exclusions)", "/api/v1/search?q=task&limit=500"]
        // A thread each, all at once (Dispatch's global queue runs only as
        // many blocks at a time as there are cores).
        let finished = DispatchSemaphore(value: 0)
        let (port, token) = (port, token)
        for path in attacks {
            Thread {
                while isAttacking.current {
                    guard let connection = try? RawHTTPConnection(port: port) else { continue }
                    connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                    + "Authorization: Bearer \(token)\r\nConnection: close\r\n\r\n")
                    _ = connection.readToEnd(timeout: 60)
                }
                finished.signal()
            }.start()
        }
        // Two exports that are never read, beside them.
        let stalled = try (0..<2).map { _ in try RawHTTPConnection(port: port) }
        for connection in stalled {
            connection.send("GET /api/v1/export HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n")
        }
        var milliseconds: [Double] = []
        for _ in 0..<60 {
            let started = DispatchTime.now()
            let connection = try RawHTTPConnection(port: port)
            connection.send("GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n")
            XCTAssertEqual(RawHTTPConnection.status(of: connection.readToEnd(timeout: 30)), 200)
            milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e6)
            usleep(20_000)
        }
        isAttacking.withValue { $0 = false }
        for _ in attacks { finished.wait() }
        milliseconds.sort()
        let median = milliseconds[milliseconds.count / 2], worst = milliseconds.last ?? 0
        print("health beside one busy client: median \(Int(median)) ms, worst \(Int(worst)) ms")
        XCTAssertLessThan(median, 100, "median of 60: \(milliseconds.map(Int.init))")
        // The machine running the tests is shared: one late answer in 60 is
        // the scheduler's, not the server's; a second behind is the server's.
        XCTAssertLessThan(worst, 1000, "\(milliseconds.map(Int.init))")
    }

    func testAnExportReadSlowlyHoldsNoSnapshotOnceTheDatabaseIsRead() throws {
        let exports = try (0..<4).map { _ -> RawHTTPConnection in
            let connection = try RawHTTPConnection(port: port)
            connection.send("GET /api/v1/export HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n\r\n")
            // Its first bytes: the export's snapshot is open.
            XCTAssertNotNil(connection.read(until: "\"format\""), "the export began")
            return connection
        }
        // Changes after the snapshots began: a checkpoint can copy them into
        // the database only once no snapshot older than them is held.
        let writer = try RawHTTPConnection(port: port)
        for index in 0..<200 {
            let body = #"{"title": "written beside the exports \#(index)"}"#
            writer.send("POST /api/v1/todos HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            XCTAssertNotNil(writer.read(until: "\"title\":\"written beside the exports \(index)\""))
        }
        // Read slowly, 16 KiB a tenth of a second (so that the socket's
        // buffers drain and the connection's time-out never ends an export,
        // as it would one not read at all): a document of tens of megabytes
        // takes minutes so, and each snapshot must end once its export is
        // written, long before that.
        let checkpointed = waitUntil(timeout: 90) {
            for connection in exports { _ = connection.readSome(timeout: 0.01, maximum: 16384) }
            let counts = sqlite3(memoapp.databasePath, "PRAGMA wal_checkpoint(PASSIVE)").split(separator: "|")
            return counts.count == 3 && counts[1] == counts[2] && counts[1] != "-1"
        }
        XCTAssertTrue(checkpointed, "a checkpoint could not copy the WAL behind the exports")
        // Each is whole when its client reads on: its last chunk ends the
        // document. (Read side by side: one left unread while another is
        // read to its end would be cut by the time-out.)
        var tails = [[UInt8]](repeating: [], count: exports.count)
        var ended = Set<Int>()
        let end = Array("\n}\n\r\n0\r\n\r\n".utf8)
        XCTAssertTrue(waitUntil(timeout: 120, pause: 0) {
            for (index, connection) in exports.enumerated() where !ended.contains(index) {
                guard let chunk = connection.readSome(timeout: 0.01) else { continue }
                if chunk.isEmpty { ended.insert(index) }
                tails[index] = Array((tails[index] + chunk).suffix(end.count))
                if tails[index] == end { ended.insert(index) }
            }
            return ended.count == exports.count
        }, "the exports did not end")
        XCTAssertTrue(tails.allSatisfy { $0 == end }, "an export was cut")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: memoapp.home).filter { $0.hasPrefix(".export") }
        XCTAssertEqual(leftovers, [], "an export's file was left in the data home")
    }
}

/// Polls `condition` (each call may do some work) until it holds or
/// `timeout` seconds pass, `pause` microseconds apart.
private func waitUntil(timeout: Double, pause: UInt32 = 100_000, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        usleep(pause)
    }
    return false
}
