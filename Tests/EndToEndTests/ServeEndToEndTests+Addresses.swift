import Foundation
import TestSupport
import XCTest

/// Issue 29, finding 10: what `memoapp serve` prints and accepts is usable
/// whatever address it listens on, an origin matches in any case, `token
/// link` names the port the server really runs on, and a data home others
/// can write is pointed out.
extension ServeEndToEndTests {
    func testAServerOnAnotherLoopbackAddressAnswersItsOwnPrintedURL() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.2:0"])
        XCTAssertTrue(serving.url.hasPrefix("http://127.0.0.2:"), serving.url)
        let health = Curl.run([serving.url + "/api/v1/health"])
        XCTAssertEqual(health.status, 200, health.text)
        // The usual names still pass, other hosts still do not.
        let port = String(serving.url.split(separator: ":").last ?? "")
        XCTAssertEqual(Curl.run(["-H", "Host: localhost:\(port)", serving.url + "/api/v1/health"]).status, 200)
        XCTAssertEqual(Curl.run(["-H", "Host: 127.0.0.3:\(port)", serving.url + "/api/v1/health"]).status, 421)
        XCTAssertEqual(Curl.run(["-H", "Host: evil.example:\(port)", serving.url + "/api/v1/health"]).status, 421)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
    }

    func testAServerOnEveryAddressPrintsALinkThatWorks() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        for listen in ["[::]:0", "0.0.0.0:0"] {
            let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", listen, "--insecure"])
            XCTAssertTrue(serving.url.hasPrefix("http://127.0.0.1:"), "\(listen) printed \(serving.url)")
            let port = String(serving.url.split(separator: ":").last ?? "")
            let viaIPv4 = Curl.run(["-H", "Host: 127.0.0.1:\(port)", serving.url + "/api/v1/health"])
            XCTAssertEqual(viaIPv4.status, 200, "\(listen): \(viaIPv4.stderr)")
            if listen.hasPrefix("[") {
                XCTAssertEqual(Curl.run(["http://[::1]:\(port)/api/v1/health"]).status, 200, "IPv6 still served")
            }
            XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        }
    }

    func testAnAllowedOriginWrittenInUpperCaseMatchesTheBrowsersOrigin() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0",
                                                              "--allow-origin", "HTTPS://App.EXAMPLE:443"])
        // What a browser sends: scheme and host in lower case, no default port.
        let preflight = Curl.run(["-X", "OPTIONS", "-H", "Origin: https://app.example",
                                  "-H", "Access-Control-Request-Method: POST", serving.url + "/api/v1/todos"])
        XCTAssertEqual(preflight.status, 204, preflight.text)
        XCTAssertEqual(preflight.header("Access-Control-Allow-Origin"), "https://app.example")
        let other = Curl.run(["-X", "OPTIONS", "-H", "Origin: https://app.example.evil", serving.url + "/api/v1/todos"])
        XCTAssertNotEqual(other.status, 204)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        XCTAssertEqual(memoapp.run("serve", "--allow-origin", "HTTPS://app.example/path").status, 64)
    }

    func testTokenLinkNamesThePortOfTheServerRunningOnTheHome() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        let serving = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        XCTAssertFalse(serving.url.hasSuffix(":8765"))
        let link = memoapp.run("--json", "token", "link").object()["url"] as? String ?? ""
        XCTAssertTrue(link.hasPrefix(serving.url + "/#code="), "\(link) is not a link to \(serving.url)")
        let code = String(link.split(separator: "=").last ?? "")
        let signedIn = Curl.run(["-H", "Content-Type: application/json", "-d", #"{"code": "\#(code)"}"#,
                                 serving.url + "/api/v1/session"])
        XCTAssertEqual(signedIn.status, 200, signedIn.text)
        XCTAssertEqual(serving.stop(signal: SIGTERM), 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.appending("home/serve.url")), "withdrawn at the stop")

        // No server: the default, and a word about it.
        let guessed = memoapp.run("token", "link")
        XCTAssertEqual(guessed.status, 0)
        XCTAssertTrue(guessed.stdout.contains("http://127.0.0.1:8765/#code="), guessed.stdout)
        XCTAssertTrue(guessed.stderr.hasPrefix("memoapp: "), guessed.stderr)
        // A file left by a server that died (its lock is free) names nothing.
        try "http://127.0.0.1:1\n".write(toFile: directory.appending("home/serve.url"), atomically: true, encoding: .utf8)
        XCTAssertTrue(memoapp.run("token", "link").stdout.contains("http://127.0.0.1:8765/#code="))
        // --url still wins.
        XCTAssertTrue(memoapp.run("token", "link", "--url", "https://memo.example/").stdout
            .contains("https://memo.example/#code="))
    }

    func testServeWarnsAboutADataHomeOtherUsersCanWrite() throws {
        let directory = TemporaryDirectory()
        let memoapp = Memoapp(home: directory.appending("home"))
        XCTAssertEqual(memoapp.run("token", "create", "t").status, 0)
        let quiet = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(quiet.stop(signal: SIGTERM), 0)
        XCTAssertFalse(quiet.standardError.contains("other users"), quiet.standardError)

        XCTAssertEqual(chmod(directory.appending("home"), 0o777), 0)
        let warned = try ServingMemoapp(memoapp, arguments: ["serve", "--listen", "127.0.0.1:0"])
        XCTAssertEqual(Curl.run([warned.url + "/api/v1/health"]).status, 200, "a warning, not a refusal")
        XCTAssertEqual(warned.stop(signal: SIGTERM), 0)
        let lines = warned.standardError.split(separator: "\n").filter { $0.contains("other users") }
        XCTAssertEqual(lines.count, 1, warned.standardError)
        XCTAssertTrue(lines.first?.hasPrefix("memoapp: ") ?? false)
        XCTAssertTrue(lines.first?.contains("777") ?? false)
        XCTAssertTrue(lines.first?.contains("chmod go-w") ?? false)
    }
}
