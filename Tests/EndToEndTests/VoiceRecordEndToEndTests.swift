import Foundation
import TestSupport
import XCTest

final class VoiceRecordEndToEndTests: XCTestCase {
    private func littleEndian(_ samples: [Int16]) -> Data {
        var data = Data()
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    func testRecordsStdinUntilItsEndAsFLAC() throws {
        let home = VoiceHome()
        let samples: [Int16] = (0..<16000).map { Int16(truncatingIfNeeded: $0 * 97) }
        let result = home.app.run(["voice", "record", "--title", "Standup", "--tag", "work", "--json"],
                                  input: littleEndian(samples))
        XCTAssertEqual(result.status, 0, result.stderr)
        let memo = result.object()
        XCTAssertEqual(memo["title"] as? String, "Standup")
        XCTAssertEqual(memo["container"] as? String, "FLAC")
        XCTAssertEqual(memo["frames"] as? Int, 16000)
        XCTAssertEqual(memo["sample_rate"] as? Int, 16000)
        // The stored FLAC exports back to the same samples.
        let wav = home.folder.appending("back.wav")
        XCTAssertEqual(home.app.run("voice", "export", "1", wav).status, 0)
        let exported = try XCTUnwrap(FileManager.default.contents(atPath: wav))
        XCTAssertEqual(exported.suffix(32000), littleEndian(samples))
    }

    /// The line names the memo once, as `voice import`'s does.
    func testTheRecordedLineNamesTheMemoOnce() {
        let home = VoiceHome()
        let result = home.app.run(["voice", "record", "--title", "회의"], input: littleEndian([1, 2, 3, 4]))
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasPrefix("Recorded voice memo 1  회의  "), result.stdout)
    }

    func testRecordOptionsAndNothingCaptured() {
        let home = VoiceHome()
        let stereo = home.app.run(["voice", "record", "--rate", "8000", "--channels", "2", "--sample-format", "s24",
                                   "--format", "wav", "--json"], input: Data(repeating: 0x10, count: 6 * 800))
        XCTAssertEqual(stereo.status, 0, stereo.stderr)
        XCTAssertEqual(stereo.object()["encoding"] as? String, "PCM 24-bit")
        XCTAssertEqual(stereo.object()["frames"] as? Int, 800)
        let empty = home.app.run(["voice", "record"], input: Data())
        XCTAssertEqual(empty.status, 65)
        // Three bytes of s16 mono are a frame and a half: not whole frames, not a memo.
        let three = home.app.run(["voice", "record", "--json"], input: Data("abc".utf8))
        XCTAssertEqual(three.status, 65, three.stdout)
        XCTAssertEqual(three.errorCode, "bad_input")
        XCTAssertEqual(three.stdout, "")
        XCTAssertEqual(home.app.run(["voice", "record", "--sample-format", "u8"], input: Data()).status, 64)
        XCTAssertEqual(home.libraryFiles.count, 1)
    }

    func testSIGTERMKeepsWhatWasCapturedFinalisedAndPlayable() throws {
        let home = VoiceHome()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Memoapp.binaryPath)
        process.arguments = ["voice", "record", "--json"]
        process.environment = home.app.environment
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Half a second of audio; the writer stays open as a live recorder's would.
        try input.fileHandleForWriting.write(contentsOf: littleEndian(Array(repeating: 4000, count: 8000)))
        // Wait until memoapp has taken every byte from the pipe, then stop it.
        var pending: Int32 = 1
        while pending > 0 {
            _ = ioctl(input.fileHandleForWriting.fileDescriptor, UInt(FIONREAD), &pending)
            usleep(10_000)
        }
        usleep(300_000)
        process.terminate()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        let memo = try XCTUnwrap(try JSONSerialization.jsonObject(with: output.fileHandleForReading.readDataToEndOfFile())
            as? [String: Any])
        XCTAssertEqual(memo["frames"] as? Int, 8000)
        XCTAssertEqual(home.app.run("voice", "verify").status, 0)
        try? input.fileHandleForWriting.close()
    }
}
