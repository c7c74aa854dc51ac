import Foundation
import TestSupport
import XCTest

/// `/api/v1/voice`: uploads streamed to the one-pass import, the audio by
/// byte range, peaks, the picture, trimming.
final class VoiceRouteTests: XCTestCase {
    /// A mono 16-bit WAV of `frames` frames of a tone at 8 kHz.
    static func wav(frames: Int) -> Data {
        var samples = Data()
        for index in 0..<frames {
            var sample = Int16(8000 * sin(Double(index) / 10)).littleEndian
            withUnsafeBytes(of: &sample) { samples.append(contentsOf: $0) }
        }
        func le32(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt32(value).littleEndian) { Array($0) } }
        func le16(_ value: Int) -> [UInt8] { withUnsafeBytes(of: UInt16(value).littleEndian) { Array($0) } }
        var data = Data("RIFF".utf8) + le32(36 + samples.count) + Data("WAVEfmt ".utf8)
        data += le32(16) + le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        data += Data("data".utf8) + le32(samples.count) + samples
        return data
    }

    private func upload(_ server: APITestServer, _ audio: Data, query: String = "?title=Tone&tag=test") -> CurlResult {
        Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav",
                  "--data-binary", "@-", server.url("/api/v1/voice" + query)], input: audio)
    }

    private func libraryFiles(_ server: APITestServer) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: server.home.voiceDirectory)) ?? []
    }

    func testUploadThenServeByRangeWithTheChecksumAsETag() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = Self.wav(frames: 16000)
        let created = upload(server, audio)
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(created.object["title"] as? String, "Tone")
        XCTAssertEqual(created.object["tags"] as? [String], ["test"])
        XCTAssertEqual(created.header("Location"), "/api/v1/voice/1")
        let whole = server.curl("GET", "/api/v1/voice/1/audio")
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, audio)
        XCTAssertEqual(whole.header("Content-Type"), "audio/wav")
        let tag = try XCTUnwrap(whole.header("ETag"))
        XCTAssertEqual(tag, "\"\(created.object["checksum"] as? String ?? "")\"")
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio", headers: ["If-None-Match: \(tag)"]).status, 304)
        let part = server.curl("GET", "/api/v1/voice/1/audio", headers: ["Range: bytes=4-11"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, audio[4...11])
        XCTAssertEqual(part.header("Content-Range"), "bytes 4-11/\(audio.count)")
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio", headers: ["Range: bytes=\(audio.count)-"]).status, 416)

        let peaks = server.curl("GET", "/api/v1/voice/1/peaks?width=4")
        XCTAssertEqual(peaks.object["version"] as? Int, 2)
        XCTAssertEqual(peaks.object["length"] as? Int, 4)
        let svg = server.curl("GET", "/api/v1/voice/1/waveform.svg?width=100&height=20")
        XCTAssertEqual(svg.header("Content-Type"), "image/svg+xml")
        XCTAssertTrue(svg.text.contains("<svg"), svg.text)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/waveform.svg?width=0").status, 400)

        let trimmed = server.curl("POST", "/api/v1/voice/1/trim", json: #"{"start": 0.5, "end": 1.5}"#)
        XCTAssertEqual(trimmed.status, 200, trimmed.text)
        XCTAssertEqual(trimmed.object["duration"] as? Double, 1)
        XCTAssertEqual(server.curl("PATCH", "/api/v1/voice/1", json: #"{"title": "Renamed"}"#).object["title"] as? String,
                       "Renamed")
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 1)
        XCTAssertEqual(server.curl("DELETE", "/api/v1/voice/1").status, 200)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio").status, 404)
        XCTAssertEqual(libraryFiles(server), [".undo"], "the audio left the library, kept aside for an undo")
        XCTAssertEqual(server.curl("POST", "/api/v1/undo").status, 200)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio").status, 200, "the removal undone, audio and all")
    }

    func testTheVoiceListPagesByCursor() throws {
        let server = try APITestServer()
        server.onboard()
        for frames in [8000, 8001, 8002] {
            XCTAssertEqual(upload(server, Self.wav(frames: frames)).status, 201)
        }
        let first = server.curl("GET", "/api/v1/voice?limit=2")
        XCTAssertEqual(first.array.map { $0["id"] as? Int ?? 0 }, [1, 2])
        let link = try XCTUnwrap(first.header("Link"))
        let second = server.curl("GET", String(link.dropFirst().prefix { $0 != ">" }))
        XCTAssertEqual(second.array.map { $0["id"] as? Int ?? 0 }, [3])
        XCTAssertNil(second.header("Link"))
    }

    func testAudioThatIsNotAudioStoresNothing() throws {
        let server = try APITestServer()
        server.onboard()
        let refused = upload(server, Data("this is not audio at all".utf8))
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(refused.errorCode, "bad_input")
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 0)
        XCTAssertEqual(libraryFiles(server), [])
    }

    /// A declared length lets the scan run while the body arrives; a chunked
    /// body is scanned once complete. Both store the same memo.
    func testChunkedAndDeclaredLengthUploadsStoreTheSameAudio() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = Self.wav(frames: 40000)
        let declared = upload(server, audio, query: "?title=declared")
        XCTAssertEqual(declared.status, 201, declared.text)
        let chunked = Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/wav",
                                "-H", "Transfer-Encoding: chunked", "--data-binary", "@-",
                                server.url("/api/v1/voice?title=chunked&allow_duplicate=true")], input: audio)
        XCTAssertEqual(chunked.status, 201, chunked.text)
        for key in ["checksum", "frames", "size", "duration"] {
            XCTAssertEqual(declared.object[key] as? NSObject, chunked.object[key] as? NSObject, key)
        }
        XCTAssertEqual(declared.object["size"] as? Int, audio.count)
        XCTAssertEqual(libraryFiles(server).count, 2)
        // Garbage declared long: the scan gives up early, the answer waits for the body.
        let garbage = Data(repeating: 0x41, count: 3 << 20)
        let refused = upload(server, garbage)
        XCTAssertEqual(refused.status, 422, refused.text)
        XCTAssertEqual(libraryFiles(server).count, 2)
    }

    func testACutOffUploadStoresNothing() throws {
        let server = try APITestServer()
        server.onboard()
        let audio = Self.wav(frames: 16000)
        let connection = try RawHTTPConnection(host: "127.0.0.1", port: server.server.boundAddress!.port)
        connection.send("POST /api/v1/voice HTTP/1.1\r\nHost: 127.0.0.1:\(server.server.boundAddress!.port)\r\n"
                        + "Authorization: Bearer \(server.token)\r\nContent-Type: audio/wav\r\n"
                        + "Content-Length: \(audio.count)\r\n\r\n")
        connection.send(Array(audio.prefix(audio.count / 2)))
        // Half sent, the spool exists; then the client goes away.
        let spooled = waitFor { self.libraryFiles(server).count == 1 }
        XCTAssertTrue(spooled, "no spool appeared: \(libraryFiles(server))")
        shutdown(connection.descriptor, Int32(SHUT_RDWR))
        XCTAssertTrue(waitFor { self.libraryFiles(server).isEmpty }, "the spool stayed: \(libraryFiles(server))")
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 0)
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
