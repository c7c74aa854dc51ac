import Foundation
import TestSupport
import XCTest

/// `POST /api/v1/voice` of what a phone records (AAC in .m4a, what Safari's
/// MediaRecorder and iPhones make): stored as uploaded, with the length
/// ffprobe reports, served back as `audio/mp4`; a cut one stores nothing.
final class VoicePhoneAudioRouteTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/audio").path

    private func upload(_ server: APITestServer, _ name: String, chunked: Bool = false) throws -> CurlResult {
        let audio = try XCTUnwrap(FileManager.default.contents(atPath: Self.fixtures + "/" + name))
        return Curl.run(["-H", "Authorization: Bearer \(server.token)", "-H", "Content-Type: audio/mp4"]
                        + (chunked ? ["-H", "Transfer-Encoding: chunked"] : [])
                        + ["--data-binary", "@-", server.url("/api/v1/voice?filename=\(name)&allow_duplicate=true")],
                        input: audio)
    }

    private func libraryFiles(_ server: APITestServer) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: server.home.voiceDirectory)) ?? []
    }

    func testAnM4AUploadIsStoredAsItCameWithFFprobesLengthAndServedAsAudioMP4() throws {
        let server = try APITestServer()
        server.onboard()
        let probed = try XCTUnwrap(FFmpegTool.probe(Self.fixtures + "/voice-memo.m4a"))
        // A declared length (scanned while the body arrives) and a chunked body (scanned once complete).
        for (index, chunked) in [false, true].enumerated() {
            let created = try upload(server, "voice-memo.m4a", chunked: chunked)
            XCTAssertEqual(created.status, 201, created.text)
            XCTAssertEqual(created.object["frames"] as? Int, Int(probed.frames))
            XCTAssertEqual(created.object["duration"] as? Double, Double(probed.frames) / Double(probed.sampleRate))
            XCTAssertEqual(created.object["container"] as? String, "MP4")
            XCTAssertEqual(created.object["encoding"] as? String, "AAC")
            let audio = server.curl("GET", "/api/v1/voice/\(index + 1)/audio")
            XCTAssertEqual(audio.status, 200)
            XCTAssertEqual(audio.header("Content-Type"), "audio/mp4")
            XCTAssertEqual(audio.body, FileManager.default.contents(atPath: Self.fixtures + "/voice-memo.m4a"))
        }
        let peaks = server.curl("GET", "/api/v1/voice/1/peaks?width=4")
        XCTAssertEqual(peaks.object["length"] as? Int, 4)
        let trimmed = server.curl("POST", "/api/v1/voice/1/trim", json: #"{"start": 0.25, "end": 1}"#)
        XCTAssertEqual(trimmed.status, 200, trimmed.text)
        XCTAssertEqual(trimmed.object["duration"] as? Double, 0.75)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio").header("Content-Type"), "audio/flac")
    }

    func testAnALACCAFUploadIsServedAsCAF() throws {
        let server = try APITestServer()
        server.onboard()
        let created = try upload(server, "alac.caf")
        XCTAssertEqual(created.status, 201, created.text)
        XCTAssertEqual(server.curl("GET", "/api/v1/voice/1/audio").header("Content-Type"), "audio/x-caf")
    }

    func testAnM4AWhoseIndexFollowsItsAudioIsReadWhileItArrives() throws {
        // FFmpeg seeks to the index at the end before it decodes: the scan
        // running beside the upload waits for those bytes, then goes back.
        let server = try APITestServer()
        server.onboard()
        let probed = try XCTUnwrap(FFmpegTool.probe(Self.fixtures + "/aac-stereo-44k.m4a"))
        for chunked in [false, true] {
            let created = try upload(server, "aac-stereo-44k.m4a", chunked: chunked)
            XCTAssertEqual(created.status, 201, created.text)
            XCTAssertEqual(created.object["frames"] as? Int, Int(probed.frames))
            XCTAssertEqual(created.object["channels"] as? Int, 2)
        }
    }

    func testACutM4AUploadStoresNothing() throws {
        let server = try APITestServer()
        server.onboard()
        for name in ["truncated.m4a", "truncated-moov.m4a"] {
            for chunked in [false, true] {
                let refused = try upload(server, name, chunked: chunked)
                XCTAssertEqual(refused.status, 422, "\(name): \(refused.text)")
                XCTAssertEqual(refused.errorCode, "bad_input", name)
            }
        }
        XCTAssertEqual(server.curl("GET", "/api/v1/voice").array.count, 0)
        XCTAssertEqual(libraryFiles(server), [])
    }
}
