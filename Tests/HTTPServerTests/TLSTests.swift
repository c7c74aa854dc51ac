import Foundation
@testable import HTTPServer
import MemoCore
import TestSupport
import XCTest

/// HTTPS with a certificate and key given as PEM text.
final class TLSTests: XCTestCase {
    /// A fresh self-signed certificate for 127.0.0.1 (openssl, installed by scripts/test).
    private func makeIdentity(in folder: TemporaryDirectory) throws -> (TLSIdentity, certificatePath: String) {
        let key = folder.appending("key.pem"), certificate = folder.appending("cert.pem")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                             "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "openssl could not make a certificate")
        let identity = TLSIdentity(certificatePEM: try String(contentsOfFile: certificate, encoding: .utf8),
                                   privateKeyPEM: try String(contentsOfFile: key, encoding: .utf8))
        return (identity, certificate)
    }

    func testHTTPSServesWithTheGivenCertificate() throws {
        let folder = TemporaryDirectory()
        let (identity, certificatePath) = try makeIdentity(in: folder)
        let server = try TestServer(router: helloRouter()) { $0.tls = identity }
        let url = "https://127.0.0.1:\(server.port)/"
        let verified = Curl.run(["--cacert", certificatePath, url])
        XCTAssertEqual(verified.status, 200, verified.stderr)
        XCTAssertEqual(verified.text, "ok")
        XCTAssertEqual(verified.header("X-Content-Type-Options"), "nosniff")
        XCTAssertNotEqual(Curl.run([url]).exitCode, 0, "an unknown certificate must fail verification")
        XCTAssertNotEqual(Curl.run(["http://127.0.0.1:\(server.port)/"]).status, 200, "plain HTTP on the TLS port")
        let afterPlain = Curl.run(["--cacert", certificatePath, url])
        XCTAssertEqual(afterPlain.status, 200, "still serving after a plain-HTTP client: \(afterPlain.stderr)")
    }

    func testAKeyThatIsNotPEMFailsAtStart() throws {
        let folder = TemporaryDirectory()
        let (identity, _) = try makeIdentity(in: folder)
        var configuration = ServerConfiguration()
        configuration.tls = TLSIdentity(certificatePEM: identity.certificatePEM, privateKeyPEM: "not a key")
        let server = Server(configuration: configuration, router: helloRouter())
        XCTAssertThrowsError(try server.start()) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .internalFailure)
            XCTAssertTrue((error as? MemoError)?.message.en.contains("TLS") ?? false, "libmicrohttpd's reason is given")
        }
        XCTAssertNil(server.boundAddress)
    }
}
