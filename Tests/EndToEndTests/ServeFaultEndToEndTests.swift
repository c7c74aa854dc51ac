import Foundation
import TestSupport
import XCTest

/// `memoapp serve` under faults (issue 13): killed with SIGKILL while clients
/// write and upload, and many HTTP clients writing beside CLI processes. What
/// a client was told succeeded must be stored, exactly once; nothing is
/// stored half. The moment of a kill follows the server's progress (rows or
/// a temporary file appearing), never the clock, and nothing here is timed.
final class ServeFaultEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!
    var token = ""

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
        token = app.run("--json", "token", "create", "faults").object()["token"] as? String ?? ""
    }

    func testKilledWhileFourClientsWriteLosesNothingAcknowledgedAndStoresNothingTwice() throws {
        var acknowledged: [String] = []
        // Killed once a few writes are in, once many are: early and late in a run.
        for (round, killAfter) in [5, 40, 120].enumerated() {
            let serving = try ServingMemoapp(app, arguments: ["serve", "--listen", "127.0.0.1:0"])
            let before = Int(sqlite3(app.databasePath, "SELECT count(*) FROM todos")) ?? 0
            let clients = (0..<4).map { client in
                (0..<100).map { "kill round \(round) client \(client) write \($0)" }
            }
            let answers = Locked([[String]](repeating: [], count: clients.count))
            let group = ServeClients.concurrently(clients.count) { index in
                let statuses = ServeClients.post(clients[index], to: serving.url, token: self.token, in: self.folder)
                answers.withValue { $0[index] = statuses }
            }
            ServeClients.waitUntil(limit: 6000) {
                (Int(sqlite3(self.app.databasePath, "SELECT count(*) FROM todos")) ?? 0) >= before + killAfter
            }
            XCTAssertEqual(serving.stop(signal: SIGKILL), SIGKILL, "round \(round): the server was not killed")
            group.wait()
            app.assertIntegrity("round \(round)")
            for (titles, statuses) in zip(clients, answers.current) {
                XCTAssertEqual(statuses.count, titles.count, "round \(round): curl reported \(statuses.count) answers")
                for (title, status) in zip(titles, statuses) where status == "201" { acknowledged.append(title) }
                XCTAssertTrue(statuses.allSatisfy { $0 == "201" || $0 == "000" }, "round \(round): \(Set(statuses))")
            }
        }
        let stored = sqlite3(app.databasePath, "SELECT title FROM todos").split(separator: "\n").map(String.init)
        XCTAssertEqual(Set(stored).count, stored.count, "a to-do is stored twice")
        XCTAssertTrue(Set(acknowledged).isSubset(of: Set(stored)),
                      "acknowledged but lost: \(Set(acknowledged).subtracting(stored).sorted().prefix(5))")
        XCTAssertGreaterThanOrEqual(acknowledged.count, 5)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testKilledDuringUploadsStoresNoHalfMemoAndLeavesOnlyTemporaryFiles() throws {
        let library = app.home + "/voice"
        let long = ServeClients.minuteOfStereoWAV()
        var acknowledged: [Int] = []
        for round in 0..<3 {
            let serving = try ServingMemoapp(app, arguments: ["serve", "--listen", "127.0.0.1:0"])
            // One whole upload first: acknowledged, it must outlive the kill.
            let whole = folder.appending("whole-\(round).wav")
            try ServeClients.varied(long, by: 2 * round).write(to: URL(fileURLWithPath: whole))
            let done = Curl.run(["-H", "Authorization: Bearer \(token)", "-H", "Content-Type: audio/wav", "-X", "POST",
                                 "-T", whole, serving.url + "/api/v1/voice?title=whole-\(round)"], maxTime: 120)
            XCTAssertEqual(done.status, 201, done.text)
            if let id = (try? JSONSerialization.jsonObject(with: done.body) as? [String: Any])?["id"] as? Int {
                acknowledged.append(id)
            }
            // Then one cut off: sent slowly, killed once its temporary file is there.
            let cut = folder.appending("cut-\(round).wav")
            try ServeClients.varied(long, by: 2 * round + 1).write(to: URL(fileURLWithPath: cut))
            let cutStatus = Locked(0)
            let upload = ServeClients.concurrently(1) { _ in
                let status = Curl.run(["-H", "Authorization: Bearer \(self.token)", "-H", "Content-Type: audio/wav",
                                      "--limit-rate", "1M", "-X", "POST", "-T", cut,
                                      serving.url + "/api/v1/voice?title=cut-\(round)"], maxTime: 120).status
                cutStatus.withValue { $0 = status }
            }
            ServeClients.waitUntil(limit: 6000) {
                ((try? FileManager.default.contentsOfDirectory(atPath: library)) ?? []).contains { $0.hasSuffix(".part") }
            }
            XCTAssertEqual(serving.stop(signal: SIGKILL), SIGKILL)
            upload.wait()
            XCTAssertNotEqual(cutStatus.current, 201, "round \(round): the cut-off upload was acknowledged")
            app.assertIntegrity("round \(round)")
            let rows = sqlite3(app.databasePath, "SELECT id, file_name, title FROM voice_memos").split(separator: "\n")
                .map { $0.split(separator: "|").map(String.init) }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: library)) ?? []
            for row in rows {
                XCTAssertTrue(files.contains(row[1]), "round \(round): memo file \(row[1]) is missing")
                XCTAssertFalse(row[2].hasPrefix("cut-"), "round \(round): a cut-off upload was stored")
            }
            // Whatever no row owns is a temporary the next writing command removes, never finished audio.
            for file in files where !rows.contains(where: { $0[1] == file }) {
                XCTAssertTrue(file.hasPrefix(".") && file.hasSuffix(".part"), "round \(round): orphaned audio \(file)")
            }
        }
        let ids = Set(sqlite3(app.databasePath, "SELECT id FROM voice_memos").split(separator: "\n").compactMap { Int($0) })
        XCTAssertEqual(ids, Set(acknowledged))
        XCTAssertEqual(acknowledged.count, 3)
        try ageLeftovers(in: library)
        let small = folder.appending("small.wav")
        try HandMadeWAV.bytes(samples: [1, 2, 3, 4, 5, 6, 7, 8], channels: 1, rate: 8000).write(to: URL(fileURLWithPath: small))
        XCTAssertEqual(app.run("voice", "import", small).status, 0)
        let rows = Set(sqlite3(app.databasePath, "SELECT file_name FROM voice_memos").split(separator: "\n").map(String.init))
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: library)), rows)
        XCTAssertEqual(app.doctor().status, 0)
    }

    func testEightHTTPClientsAndCLIWritersStoreEveryToDoOnceWithoutALockedAnswer() throws {
        let serving = try ServingMemoapp(app, arguments: ["serve", "--listen", "127.0.0.1:0"])
        let clients = (0..<8).map { client in (0..<250).map { "http client \(client) to-do \($0)" } }
        let commandLines = (0..<2).map { writer in (0..<25).map { "cli writer \(writer) to-do \($0)" } }
        let answers = Locked([[String]](repeating: [], count: clients.count))
        let cliFailures = Locked([String]())
        let http = ServeClients.concurrently(clients.count) { index in
            let statuses = ServeClients.post(clients[index], to: serving.url, token: self.token, in: self.folder)
            answers.withValue { $0[index] = statuses }
        }
        let cli = ServeClients.concurrently(commandLines.count) { index in
            for title in commandLines[index] {
                let result = self.app.run("todo", "add", title)
                if result.status != 0 { cliFailures.withValue { $0.append("\(title): \(result.status) \(result.stderr)") } }
            }
        }
        http.wait()
        cli.wait()
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        for statuses in answers.current {
            XCTAssertEqual(statuses.count, 250)
            XCTAssertEqual(Set(statuses), ["201"])
        }
        XCTAssertEqual(cliFailures.current, [])
        // Log lines read "POST /api/v1/todos STATUS BYTESB ...": no 5xx answer.
        XCTAssertFalse(serving.standardError.contains("/api/v1/todos 5"), String(serving.standardError.suffix(2000)))
        let stored = sqlite3(app.databasePath, "SELECT title FROM todos").split(separator: "\n").map(String.init)
        XCTAssertEqual(stored.count, 8 * 250 + 2 * 25)
        XCTAssertEqual(Set(stored), Set(clients.joined()).union(commandLines.joined()))
        app.assertIntegrity("after the writers")
    }
}

/// The clients these tests run.
enum ServeClients {
    /// POSTs one to-do per title, in order, over one keep-alive connection (one
    /// curl run reading a config file); returns each answer's status, "000"
    /// for a request that got none.
    static func post(_ titles: [String], to url: String, token: String, in folder: TemporaryDirectory) -> [String] {
        let config = folder.appending("post-\(UUID().uuidString).curlrc")
        let blocks = titles.map { title in
            """
            url = "\(url)/api/v1/todos"
            http1.1
            header = "Authorization: Bearer \(token)"
            header = "Content-Type: application/json"
            data = "{\\"title\\": \\"\(title)\\"}"
            output = "/dev/null"
            write-out = "%{http_code}\\n"
            max-time = 60
            """
        }
        try? blocks.joined(separator: "\nnext\n").write(toFile: config, atomically: true, encoding: .utf8)
        let result = runChildProcess("/usr/bin/curl", ["-sS", "-K", config], timeout: 600)
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// Runs `body(0)` to `body(count - 1)` each on a thread of its own and
    /// returns the group to wait on. Threads, not the global dispatch queue:
    /// the clients block for long, and a child process's pipes are read on
    /// that queue, which a few blocked clients can use up.
    static func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) -> DispatchGroup {
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                body(index)
                group.leave()
            }.start()
        }
        return group
    }

    /// Checks `condition` every 10 ms until it holds or `limit` checks were made.
    static func waitUntil(limit: Int, _ condition: () -> Bool) {
        for _ in 0..<limit {
            if condition() { return }
            usleep(10_000)
        }
    }

    /// A minute of 48 kHz stereo WAV (11 MB): long enough to be cut off part way.
    static func minuteOfStereoWAV() -> Data {
        let second = HandMadeWAV.bytes(samples: (0..<96_000).map { Int16(truncatingIfNeeded: ($0 * 37) % 20_000 - 10_000) },
                                       channels: 2, rate: 48_000)
        var long = HandMadeWAV.bytes(samples: [], channels: 2, rate: 48_000)
        for _ in 0..<60 { long.append(second.suffix(from: 44)) }
        let dataSize = UInt32(long.count - 44)
        long.replaceSubrange(4..<8, with: withUnsafeBytes(of: (dataSize + 36).littleEndian) { Data($0) })
        long.replaceSubrange(40..<44, with: withUnsafeBytes(of: dataSize.littleEndian) { Data($0) })
        return long
    }

    /// `audio` with one sample changed: other bytes, so never a duplicate.
    static func varied(_ audio: Data, by round: Int) -> Data {
        var bytes = audio
        bytes[bytes.count - 2] = UInt8(truncatingIfNeeded: round + 1)
        return bytes
    }
}
