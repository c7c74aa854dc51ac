import Foundation
import TestSupport
import XCTest

/// Issue 29, finding 12: a client that leaves half-way through an upload
/// was noticed only at the 15 s time-out. Whichever way it leaves (closing,
/// resetting, closing its sending side only), over whichever framing (a
/// declared length, chunks), to either upload route (audio, an import
/// document), its request must end as cut off by the client, never as
/// timed out, its temporary must go and nothing be stored. Which of the two
/// ended it is read from the request log's outcome, not from the clock.
final class ServeCutUploadEndToEndTests: XCTestCase {
    private enum Leaving: CaseIterable { case close, reset, closeSendingSide }
    private enum Framing: CaseIterable { case length, chunked }

    func testAClientLeavingHalfWayThroughAnUploadIsNoticedAtOnceNotAtTheTimeOut() throws {
        let memoapp = Memoapp(home: TemporaryDirectory().appending("home"))
        memoapp.onboard()
        let token = memoapp.run("--json", "token", "create", "phone").object()["token"] as? String ?? ""
        let serving = try ServingMemoapp(memoapp, arguments: ["--json", "serve", "--listen", "127.0.0.1:0"])
        let port = try XCTUnwrap(serving.url.split(separator: ":").last.flatMap { UInt16($0) })
        let audio = try Data(contentsOf: URL(fileURLWithPath: VoiceHome.fixture("voice-memo.m4a")))
        let document = Data(#"{"format": "memoapp-export", "format_version": 1, "todos": ["#.utf8)
            + Data(String(repeating: #"{"title": "half"}, "#, count: 20_000).utf8)
        var cut = 0
        var halfClosed: [RawHTTPConnection] = []
        for (path, body, type) in [("/api/v1/voice", audio, "audio/mp4"), ("/api/v1/import", document, "application/json")] {
            for framing in Framing.allCases {
                for leaving in Leaving.allCases {
                    do {
                        let connection = try RawHTTPConnection(port: port)
                        let half = Array(body.prefix(body.count / 2))
                        let framingField = framing == .length ? "Content-Length: \(body.count)" : "Transfer-Encoding: chunked"
                        connection.send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
                                        + "Content-Type: \(type)\r\n\(framingField)\r\n\r\n")
                        connection.send(framing == .length ? half
                                        : Array(String(half.count, radix: 16).utf8) + [13, 10] + half + [13, 10])
                        // The server has the half (its temporary is there) before the client leaves.
                        XCTAssertTrue(waitFor { !self.temporaries(in: memoapp).isEmpty }, "\(path) \(framing): no temporary")
                        switch leaving {
                        case .close:
                            break  // closed as it is released, below
                        case .reset:
                            // Closed with SO_LINGER 0 as it is released: a reset, not a FIN.
                            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                            setsockopt(connection.descriptor, SOL_SOCKET, SO_LINGER, &linger,
                                       socklen_t(MemoryLayout<Glibc.linger>.size))
                        case .closeSendingSide:
                            // Still open to read an answer, which never comes for half a body.
                            shutdown(connection.descriptor, Int32(SHUT_WR))
                            halfClosed.append(connection)
                        }
                    }
                    XCTAssertTrue(waitFor { self.temporaries(in: memoapp).isEmpty },
                                  "\(path) \(framing) \(leaving): the temporary stayed")
                    cut += 1
                }
            }
        }
        XCTAssertEqual(memoapp.run("--json", "voice", "list").array().count, 0, "nothing was stored")
        XCTAssertEqual(memoapp.run("--json", "todo", "list").array().count, 0, "nothing was imported")
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        let uploads = serving.standardError.split(separator: "\n").compactMap { line -> [String: Any]? in
            let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return record?["method"] as? String == "POST" ? record : nil
        }
        XCTAssertEqual(uploads.count, cut, serving.standardError)
        for record in uploads {
            XCTAssertEqual(record["outcome"] as? String, "failed", "noticed as the client's leaving, not the time-out: \(record)")
        }
    }

    private func temporaries(in memoapp: Memoapp) -> [String] {
        [memoapp.home, memoapp.home + "/voice"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".part") }
        }
    }

    /// Polls `condition` until it holds, for at most 30 s.
    private func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return false
    }
}
