import Foundation
@testable import MemoServer
import TestSupport
import XCTest

/// `POST /api/v1/voice` through `UploadBuffers`: the bytes stored are the
/// bytes sent whatever the body's size against the buffers' (with a
/// declared length and chunked), a spool that cannot be written answers
/// 503 `storage`, and no failure leaves a temporary in the library.
final class VoiceUploadTests: XCTestCase {
    /// An unsigned 8-bit mono WAV of exactly `size` bytes (header and all):
    /// one byte per frame, so any size from 45 on can be made.
    static func wav(size: Int) -> Data {
        precondition(size > 44, "a WAV needs its 44-byte header and a frame")
        let frames = size - 44
        func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian) { Array($0) } }
        func le16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).littleEndian) { Array($0) } }
        var data = Data("RIFF".utf8) + le32(36 + frames) + Data("WAVEfmt ".utf8)
        data += le32(16) + le16(1) + le16(1) + le32(8000) + le32(8000) + le16(1) + le16(8)
        data += Data("data".utf8) + le32(frames)
        // Not periodic in the buffer size, so a piece written twice or out of order shows.
        var state: UInt32 = 0x1234_5678
        data += Data((0..<frames).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        })
        XCTAssertEqual(data.count, size)
        return data
    }

    private func upload(_ server: APITestServer, _ body: Data, isChunked: Bool, query: String = "") -> CurlResult {
        var arguments = ["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav"]
        if isChunked { arguments += ["-H", "Transfer-Encoding: chunked"] }
        return Curl.run(arguments + ["--data-binary", "@-", server.url("/api/v1/voice?allow_duplicate=true" + query)],
                        input: body)
    }

    private func libraryFiles(_ server: APITestServer) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: server.home.voiceDirectory)) ?? []
    }

    func testTheAudioStoredIsTheBodySentAtEverySizeAroundTheBuffers() throws {
        let server = try APITestServer()
        server.onboard()
        let buffer = UploadBuffers.bufferSize
        let sizes = [45, buffer - 1, buffer, buffer + 1, 2 * buffer, UploadBuffers.bufferCount * buffer + 1,
                     (UploadBuffers.bufferCount + 3) * buffer + 12345]
        for size in sizes {
            let audio = Self.wav(size: size)
            for isChunked in [false, true] {
                let context = "\(size) bytes, \(isChunked ? "chunked" : "declared")"
                let created = upload(server, audio, isChunked: isChunked)
                XCTAssertEqual(created.status, 201, "\(context): \(created.text)")
                XCTAssertEqual(created.object["size"] as? Int, size, context)
                XCTAssertEqual(created.object["frames"] as? Int, size - 44, context)
                let id = try XCTUnwrap(created.object["id"] as? Int, context)
                let stored = server.curl("GET", "/api/v1/voice/\(id)/audio")
                XCTAssertEqual(stored.status, 200, context)
                XCTAssertTrue(stored.body == audio, "\(context): the stored audio differs from the body sent")
            }
        }
        XCTAssertFalse(libraryFiles(server).contains { $0.hasSuffix(".part") }, "\(libraryFiles(server))")
    }

    func testAnEmptyOrOneByteBodyIsRefusedAndLeavesNoTemporary() throws {
        let server = try APITestServer()
        server.onboard()
        for body in [Data(), Data([0x52])] {
            for isChunked in [false, true] {
                let refused = upload(server, body, isChunked: isChunked)
                XCTAssertEqual(refused.status, 422, "\(body.count) bytes, chunked \(isChunked): \(refused.text)")
                XCTAssertEqual(refused.errorCode, "bad_input")
            }
        }
        XCTAssertEqual(libraryFiles(server), [])
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 0)
    }

    /// The spool's file system full, as a file size limit makes it (EFBIG,
    /// as ENOSPC would be): a body the buffers hold whole fails when the
    /// writer is drained at its end, a longer one while it arrives; both
    /// are answered 503 `storage`, and the temporary goes.
    func testASpoolThatCannotBeWrittenIsAStorageFailureAndLeavesNoTemporary() throws {
        let server = try APITestServer()
        server.onboard()
        let limit = 2 << 20
        let short = Self.wav(size: 3 << 20)
        let long = Self.wav(size: (UploadBuffers.bufferCount + 6) * UploadBuffers.bufferSize)
        try withFileSizeLimit(limit) {
            for body in [short, long] {
                for isChunked in [false, true] {
                    let context = "\(body.count) bytes, \(isChunked ? "chunked" : "declared")"
                    let refused = upload(server, body, isChunked: isChunked)
                    XCTAssertEqual(refused.status, 503, "\(context): \(refused.text)")
                    XCTAssertEqual(refused.errorCode, "storage", context)
                    XCTAssertTrue(refused.text.contains("/.upload-"), "\(context): names the spool: \(refused.text)")
                    XCTAssertTrue(waitFor { self.libraryFiles(server).isEmpty }, "\(context): \(libraryFiles(server))")
                }
            }
        }
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 0)
        XCTAssertEqual(upload(server, short, isChunked: false).status, 201, "the limit lifted, the same upload is stored")
    }

    func testAClientLeavingMidBodyLeavesNoTemporary() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = Array(Self.wav(size: 5 * UploadBuffers.bufferSize + 3))
        let port = server.server.boundAddress!.port
        for isChunked in [false, true] {
            let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
            let framing = isChunked ? "Transfer-Encoding: chunked" : "Content-Length: \(audio.count)"
            connection.send("POST /api/v1/voice HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                            + "Authorization: Bearer \(server.token)\r\nContent-Type: audio/wav\r\n\(framing)\r\n\r\n")
            let sent = Array(audio.prefix(3 * UploadBuffers.bufferSize + 17))
            if isChunked {
                connection.send(String(sent.count, radix: 16) + "\r\n")
                connection.send(sent)
                connection.send("\r\n")
            } else {
                connection.send(sent)
            }
            XCTAssertTrue(waitFor { self.libraryFiles(server).count == 1 }, "no spool: \(libraryFiles(server))")
            shutdown(connection.descriptor, Int32(SHUT_RDWR))
            XCTAssertTrue(waitFor { self.libraryFiles(server).isEmpty },
                          "chunked \(isChunked): the spool stayed: \(libraryFiles(server))")
        }
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 0)
    }

    func testAServerStoppingMidBodyLeavesNoTemporary() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = Array(Self.wav(size: 4 * UploadBuffers.bufferSize))
        let port = server.server.boundAddress!.port
        let connection = try RawHTTPConnection(host: "127.0.0.1", port: port)
        connection.send("POST /api/v1/voice HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
                        + "Authorization: Bearer \(server.token)\r\nContent-Type: audio/wav\r\n"
                        + "Content-Length: \(audio.count)\r\n\r\n")
        connection.send(Array(audio.prefix(2 * UploadBuffers.bufferSize + 5)))
        XCTAssertTrue(waitFor { self.libraryFiles(server).count == 1 }, "no spool: \(libraryFiles(server))")
        server.server.stop(gracePeriod: 1)
        XCTAssertTrue(waitFor { self.libraryFiles(server).isEmpty }, "the spool stayed: \(libraryFiles(server))")
    }

    // MARK: - Private

    /// Runs `body` with this process's file size limit at `bytes` (SIGXFSZ
    /// ignored, so a write past it fails with EFBIG instead of killing).
    private func withFileSizeLimit(_ bytes: Int, _ body: () throws -> Void) throws {
        var saved = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved), 0)
        let previousHandler = signal(SIGXFSZ, SIG_IGN)
        var limited = saved
        limited.rlim_cur = rlim_t(bytes)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limited), 0)
        defer {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
            signal(SIGXFSZ, previousHandler)
        }
        try body()
    }

    /// Waits, in short naps, for `condition` (at most 20 s): for effects of
    /// another thread that has no event of its own to wait on.
    private func waitFor(_ condition: () -> Bool) -> Bool {
        for _ in 0..<2000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
