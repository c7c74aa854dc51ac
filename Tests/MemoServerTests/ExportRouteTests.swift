import Foundation
import MemoCore
import MemoKit
import Notes
@testable import MemoServer
import TestSupport
import XCTest

/// `GET /api/v1/export` is written while it is sent: the whole document
/// arrives, equal to `memoapp export`'s, and a client that leaves half-way
/// ends the writing (the helper thread is gone) while the server serves on.
/// `POST /api/v1/import` takes it back through a file, never memory.
final class ExportRouteTests: XCTestCase {
    /// Memos enough for a document of several of the stream's 64 KiB chunks.
    private func fill(_ server: APITestServer, memos: Int) throws {
        let workspace = Workspace(home: server.home, connection: try MemoDatabase.open(in: server.home))
        let store = try workspace.memoStore()
        let text = String(repeating: "회의록 meeting notes ", count: 40)
        for number in 0..<memos { _ = try store.add(NewMemo(text: "\(number) \(text)", tags: ["n\(number % 7)"])) }
    }

    func testTheStreamedDocumentIsTheWholeExport() throws {
        let server = try APITestServer()
        server.onboard()
        try fill(server, memos: 600)
        let export = server.curl("GET", "/api/v1/export")
        XCTAssertEqual(export.status, 200)
        XCTAssertGreaterThan(export.body.count, 4 * 65536, "several chunks")
        let memos = export.object["memos"] as? [[String: Any]] ?? []
        XCTAssertEqual(memos.count, 600)
        XCTAssertEqual(memos.last?["text"] as? String, "599 " + String(repeating: "회의록 meeting notes ", count: 40))

        // The same document `ExportDocument` writes (but for its time).
        var expected = ""
        let workspace = Workspace(home: server.home, connection: try MemoDatabase.open(in: server.home))
        _ = try ExportDocument.write(connection: workspace.database(), exportedAt: Timestamp(secondsSince1970: 0)) { expected += $0 }
        let withoutTime = { (text: String) in
            text.split(separator: "\n").filter { !$0.contains("\"exported_at\"") }.joined(separator: "\n")
        }
        XCTAssertEqual(withoutTime(export.text), withoutTime(expected))
    }

    func testTheExportIsAnAttachmentNamedByTheServersDay() throws {
        let server = try APITestServer()
        server.onboard()
        let export = server.curl("GET", "/api/v1/export")
        XCTAssertEqual(export.status, 200)
        let day = SystemLocalCalendar().date(at: Timestamp(secondsSince1970: Date().timeIntervalSince1970))
        let named = export.header("Content-Disposition")
        // Read either side of midnight: the name is one of the two days.
        let days = [day, day.adding(days: -1)].map { "attachment; filename=\"memoapp-export-\($0).json\"" }
        XCTAssertTrue(named.map(days.contains) ?? false, named ?? "no Content-Disposition")
    }

    func testAClientThatLeavesEndsTheExportAndTheServerServesOn() throws {
        let server = try APITestServer()
        server.onboard()
        try fill(server, memos: 2000)
        let threadsBefore = try threadCount()
        let port = server.server.boundAddress!.port
        for _ in 0..<3 {
            let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
            XCTAssertTrue(connection.send("GET /api/v1/export HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                          + "Authorization: Bearer \(server.token)\r\n\r\n"))
            let start = connection.readSome(timeout: 20) ?? []
            XCTAssertEqual(RawHTTPConnection.status(of: start), 200)
            // Leaves with most of the document unread.
        }
        // Each writer finds its reader gone and ends; nothing is left running.
        let deadline = Date().addingTimeInterval(30)
        while try threadCount() > threadsBefore, Date() < deadline { usleep(20_000) }
        XCTAssertLessThanOrEqual(try threadCount(), threadsBefore, "the export threads ended")
        XCTAssertEqual(server.curl("POST", "/api/v1/todos", json: #"{"title": "after"}"#).status, 201)
        let whole = server.curl("GET", "/api/v1/export")
        XCTAssertEqual((whole.object["memos"] as? [[String: Any]])?.count, 2000)
        XCTAssertEqual((whole.object["todos"] as? [[String: Any]])?.first?["title"] as? String, "after")
    }

    func testOnlyAFewExportsAreSentAtOnceAndAPlaceFreedIsTakenAgain() throws {
        let server = try APITestServer()
        server.onboard()
        // A document of some 24 MB, more than the kernel's buffers hold for a
        // client that reads nothing: its export stays in progress.
        let workspace = Workspace(home: server.home, connection: try MemoDatabase.open(in: server.home))
        let store = try workspace.memoStore()
        let text = String(repeating: "stalled export ", count: 130)
        try workspace.database().writeTransaction {
            for number in 0..<12_000 { _ = try store.add(NewMemo(text: "\(number) \(text)")) }
        }
        let port = server.server.boundAddress!.port
        var stalled: [RawHTTPConnection] = []
        for _ in 0..<server.server.services.exportSlots.limit {
            let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
            XCTAssertTrue(connection.send("GET /api/v1/export HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                          + "Authorization: Bearer \(server.token)\r\n\r\n"))
            XCTAssertEqual(RawHTTPConnection.status(of: connection.readSome(timeout: 20) ?? []), 200)
            stalled.append(connection)
        }
        let refused = server.curl("GET", "/api/v1/export")
        XCTAssertEqual(refused.status, 503, refused.text)
        XCTAssertEqual(refused.header("Retry-After"), "5")
        XCTAssertNotNil((refused.object["error"] as? [String: Any])?["code"], "the JSON error envelope")
        XCTAssertEqual(server.curl("GET", "/api/v1/health").status, 200, "the rest of the API serves on")
        XCTAssertEqual(server.curl("GET", "/api/v1/todos").status, 200)

        // One client leaves: its place is given back once its writer ends.
        stalled.removeFirst()
        let slots = server.server.services.exportSlots
        let deadline = Date().addingTimeInterval(30)
        while slots.inUse >= slots.limit, Date() < deadline { usleep(20_000) }
        XCTAssertLessThan(slots.inUse, slots.limit, "the place was given back")
        let whole = server.curl("GET", "/api/v1/export")
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual((whole.object["memos"] as? [[String: Any]])?.count, 12_000)
    }

    /// Threads of this process (the server runs in it).
    private func threadCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    }

    func testALargeExportComesBackThroughImportOnceWhateverTheRetries() throws {
        let source = try APITestServer()
        source.onboard()
        try fill(source, memos: 600)
        let export = source.curl("GET", "/api/v1/export")
        XCTAssertEqual(export.status, 200)

        let target = try APITestServer()
        target.onboard()
        let key = "Idempotency-Key: restore-1"
        let imported = target.curl("POST", "/api/v1/import", json: export.text, headers: [key])
        XCTAssertEqual(imported.status, 200, imported.text)
        let retried = target.curl("POST", "/api/v1/import", json: export.text, headers: [key])
        XCTAssertEqual(retried.status, 200, retried.text)
        XCTAssertEqual(retried.body, imported.body, "the first answer again")
        let counted = try MemoDatabase.open(in: target.home).queryFirst("SELECT count(*) FROM memos") { $0.int64(0) }
        XCTAssertEqual(counted, 600, "imported once")
        let other = target.curl("POST", "/api/v1/import", json: #"{"format": "memoapp"}"#, headers: [key])
        XCTAssertEqual(other.status, 422, "the key with another body")
        XCTAssertEqual(temporaries(in: target), [], "no spool left")
    }

    func testACutOffOrInvalidImportStoresNothingAndLeavesNoTemporary() throws {
        let source = try APITestServer()
        source.onboard()
        try fill(source, memos: 300)
        let document = Array(source.curl("GET", "/api/v1/export").body)

        let target = try APITestServer()
        target.onboard()
        let port = target.server.boundAddress!.port
        do {
            // The client goes away half-way through its body.
            let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
            XCTAssertTrue(connection.send("POST /api/v1/import HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                                          + "Authorization: Bearer \(target.token)\r\nContent-Type: application/json\r\n"
                                          + "Content-Length: \(document.count)\r\n\r\n"))
            XCTAssertTrue(connection.send(Array(document.prefix(document.count / 2))))
        }
        // Half a document: refused or cut, and nothing of it stored.
        let truncated = target.curl("POST", "/api/v1/import", json: String(decoding: document.dropLast(200), as: UTF8.self))
        XCTAssertEqual(truncated.status, 422, truncated.text)
        XCTAssertEqual(target.curl("GET", "/api/v1/memos").array.count, 0)
        let deadline = Date().addingTimeInterval(30)
        while !temporaries(in: target).isEmpty, Date() < deadline { usleep(20_000) }
        XCTAssertEqual(temporaries(in: target), [], "the cut-off body's spool is removed")
    }

    private func temporaries(in server: APITestServer) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: server.home.path)) ?? []).filter { $0.hasPrefix(".import-") }
    }
}
