import Foundation
import TestSupport
import XCTest

/// `memoapp serve` and `memoapp token` as a person runs them: the binary
/// started on port 0, its printed URL read, curl as the client, a signal to stop.
final class ServeEndToEndTests: XCTestCase {
    func testTokenCreateListRevoke() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let created = memoapp.run("--json", "token", "create", "laptop")
        XCTAssertEqual(created.status, 0, created.stderr)
        let token = created.object()["token"] as? String ?? ""
        XCTAssertEqual(token.count, 64)
        XCTAssertEqual(created.object()["name"] as? String, "laptop")
        XCTAssertNotNil(documentTime(created.object()["created_at"] as? String ?? ""))
        XCTAssertEqual(memoapp.run("--json", "token", "create", "laptop").errorCode, "duplicate")
        XCTAssertEqual(memoapp.run("token", "create", "bad name").status, 64)
        let listed = memoapp.run("--json", "token", "list")
        XCTAssertEqual(listed.array().map { $0["name"] as? String }, ["laptop"])
        XCTAssertTrue(listed.array().first?["last_used_at"] is NSNull)
        XCTAssertFalse(listed.stdout.contains(token))
        XCTAssertFalse(memoapp.run("token", "list").stdout.contains(token))
        XCTAssertEqual(memoapp.run("token", "revoke", "laptop").status, 0)
        XCTAssertEqual(memoapp.run("token", "revoke", "laptop").status, 4)
        XCTAssertEqual(memoapp.run("--json", "token", "list").array().count, 0)
    }

    func testServePrintsItsURLServesAndStopsOnSIGTERMWithExit0() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let token = memoapp.run("--json", "token", "create", "test").object()["token"] as? String ?? ""
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        let auth = ["-H", "Authorization: Bearer \(token)"]
        XCTAssertEqual(Curl.run([serving.url + "/api/v1/health"]).status, 200)
        XCTAssertEqual(Curl.run([serving.url + "/api/v1/todos"]).status, 401)
        XCTAssertEqual(Curl.run(auth + [serving.url + "/api/v1/todos"]).status, 403)
        XCTAssertEqual(memoapp.run("onboard", "skip").status, 0)
        let created = Curl.run(auth + ["-H", "Content-Type: application/json", "-d", #"{"title":"over http"}"#,
                                       serving.url + "/api/v1/todos"])
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(memoapp.run("--json", "todo", "list").array().first?["title"] as? String, "over http")
        let status = serving.stop(signal: SIGTERM)
        XCTAssertEqual(status, 0)
        let log = serving.standardError
        XCTAssertTrue(log.contains("GET /api/v1/health 200"), log)
        XCTAssertTrue(log.contains("POST /api/v1/todos 201"), log)
        XCTAssertFalse(log.contains(token), "the log shows a token")
    }

    func testServeLogsJSONLinesAndStopsOnSIGINT() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let serving = try ServingMemoapp(memoapp, arguments: ["--json", "serve", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(Curl.run([serving.url + "/api/v1/health?lang=en"]).status, 200)
        XCTAssertEqual(serving.stop(signal: SIGINT), 0)
        let line = serving.standardError.split(separator: "\n").first.map(String.init) ?? ""
        let record = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        XCTAssertEqual(record?["method"] as? String, "GET")
        XCTAssertEqual(record?["path"] as? String, "/api/v1/health")
        XCTAssertEqual(record?["status"] as? Int, 200)
        XCTAssertNotNil(record?["ms"] as? Double)
    }

    func testASignInLinkFromTokenLinkSignsInToTheRunningServer() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let serving = try ServingMemoapp(memoapp, arguments: ["--json", "serve", "--listen", "127.0.0.1:0"])
        let link = memoapp.run("--json", "token", "link", "--url", serving.url).object()["url"] as? String ?? ""
        XCTAssertTrue(link.hasPrefix(serving.url + "/#code="), link)
        let code = String(link.split(separator: "=").last ?? "")
        let signedIn = Curl.run(["-H", "Content-Type: application/json", "-d", #"{"code": "\#(code)"}"#,
                                 serving.url + "/api/v1/session"])
        XCTAssertEqual(signedIn.status, 200, signedIn.text)
        XCTAssertTrue(signedIn.header("Set-Cookie")?.hasPrefix("memoapp_session=") ?? false)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        XCTAssertFalse(serving.standardError.contains(code), "the log shows a sign-in code")
    }

    func testServeOverTLSWithTheGivenCertificate() throws {
        let directory = TemporaryDirectory()
        let key = directory.appending("key.pem"), certificate = directory.appending("cert.pem")
        let made = runChildProcess("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                                                        "-out", certificate, "-days", "2", "-subj", "/CN=127.0.0.1",
                                                        "-addext", "subjectAltName=IP:127.0.0.1"])
        XCTAssertEqual(made.status, 0, "openssl could not make a certificate")
        let memoapp = Memoapp(home: directory.appending("home"))
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0",
                                                              "--tls-cert", certificate, "--tls-key", key])
        XCTAssertTrue(serving.url.hasPrefix("https://"), serving.url)
        let health = Curl.run(["--cacert", certificate, serving.url + "/api/v1/health"])
        XCTAssertEqual(health.status, 200, health.stderr)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
    }

    func testUploadsLargerThanMaxUploadAreRefused() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        XCTAssertEqual(memoapp.run("serve", "--max-upload", "0").status, 64)
        XCTAssertEqual(memoapp.run("serve", "--max-upload", "2X").status, 64)
        let token = memoapp.run("--json", "token", "create", "test").object()["token"] as? String ?? ""
        XCTAssertEqual(memoapp.run("onboard", "skip").status, 0)
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0", "--max-upload", "1K"])
        let refused = Curl.run(["-H", "Authorization: Bearer \(token)", "--data-binary", "@-", serving.url + "/api/v1/voice"],
                               input: Data(repeating: 0, count: 2048))
        XCTAssertEqual(refused.status, 413, refused.text)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
    }

    /// Event-stream clients that hang up free their connections at once:
    /// `serve` allows 64 connections per address, and 64 departed
    /// subscribers would otherwise hold them all until the next heartbeat,
    /// 30 s away, refusing every new connection from that address meanwhile.
    func testEventStreamClientsThatHangUpFreeTheirConnectionsAtOnce() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        XCTAssertEqual(memoapp.run("onboard", "skip").status, 0)
        let token = memoapp.run("--json", "token", "create", "test").object()["token"] as? String ?? ""
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        let port = try XCTUnwrap(serving.url.split(separator: ":").last.flatMap { UInt16($0) })
        // Well before the heartbeat: a refused connection is tried again until then.
        let deadline = Date().addingTimeInterval(20)
        for round in 1...3 {
            var streams: [RawHTTPConnection] = []
            for _ in 0..<64 {
                guard let stream = subscribe(port: port, token: token, before: deadline) else {
                    XCTFail("round \(round): a new event stream was refused after \(streams.count)")
                    return
                }
                streams.append(stream)
            }
            streams.removeAll()  // every client hangs up
        }
        XCTAssertNotNil(subscribe(port: port, token: token, before: deadline))
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
    }

    /// An open `/api/v1/events` stream on a new connection, or nil when the
    /// server keeps refusing one until `deadline`.
    private func subscribe(port: UInt16, token: String, before deadline: Date) -> RawHTTPConnection? {
        while Date() < deadline {
            guard let connection = try? RawHTTPConnection(port: port) else {
                usleep(10_000)
                continue
            }
            connection.send("GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                            + "Authorization: Bearer \(token)\r\n\r\n")
            if let opening = connection.read(until: ": connected\n\n", timeout: 5),
               String(decoding: opening, as: UTF8.self).hasPrefix("HTTP/1.1 200") {
                return connection
            }
            usleep(10_000)  // refused: the slot is not free yet
        }
        return nil
    }

    func testAnAddressOtherThanLoopbackNeedsTLSOrInsecure() {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let refused = memoapp.run("serve", "--listen", "0.0.0.0:0")
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.stderr.contains("--insecure"), refused.stderr)
        XCTAssertEqual(memoapp.run("serve", "--listen", "nowhere").status, 64)
        XCTAssertEqual(memoapp.run("serve", "--tls-cert", "/nonexistent").status, 64)
    }
}

/// A `memoapp serve` running in the background; its URL is read from the
/// first line it prints, so no test waits on the clock for it to start.
final class ServingMemoapp {
    let process = Process()
    let url: String
    private let errors = Pipe()
    private let collected = Locked(Data())
    private let errorsDone = DispatchSemaphore(value: 0)

    init(_ memoapp: Memoapp, arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
        process.arguments = arguments
        process.environment = memoapp.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let (collected, errors, done) = (collected, errors, errorsDone)
        DispatchQueue.global().async {
            while true {
                let data = errors.fileHandleForReading.availableData
                if data.isEmpty { break }
                collected.withValue { $0.append(data) }
            }
            done.signal()
        }
        var printed = Data()
        while !printed.contains(UInt8(ascii: "\n")) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            printed.append(data)
        }
        let text = String(decoding: printed, as: UTF8.self)
        guard let range = text.range(of: #"https?://[^ "\n]+"#, options: .regularExpression) else {
            process.terminate()
            throw NSError(domain: "ServingMemoapp", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "no URL printed: \(text)"])
        }
        url = String(text[range])
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Sends `signal` and returns the exit status once the process has ended.
    func stop(signal: Int32) -> Int32 {
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        errorsDone.wait()
        return process.terminationStatus
    }

    var standardError: String {
        String(decoding: collected.current, as: UTF8.self)
    }
}
