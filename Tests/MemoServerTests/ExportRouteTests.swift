import Foundation
import MemoCore
import MemoKit
import Notes
import TestSupport
import XCTest

/// `GET /api/v1/export` is written while it is sent: the whole document
/// arrives, equal to `memoapp export`'s, and a client that leaves half-way
/// ends the writing (the helper thread is gone) while the server serves on.
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

    /// Threads of this process (the server runs in it).
    private func threadCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count
    }
}
