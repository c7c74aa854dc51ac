import XCTest
@testable import VoiceMemos

/// The top-level boxes of an MP4 and chunks of a CAF must end where the file does.
final class ContainerLayoutTests: XCTestCase {
    private func box(_ type: String, payload: Int) -> [UInt8] {
        withUnsafeBytes(of: UInt32(8 + payload).bigEndian) { Array($0) } + Array(type.utf8) + [UInt8](repeating: 0, count: payload)
    }

    private func cafChunk(_ type: String, payload: Int, size: UInt64? = nil) -> [UInt8] {
        Array(type.utf8) + withUnsafeBytes(of: (size ?? UInt64(payload)).bigEndian) { Array($0) }
            + [UInt8](repeating: 0, count: payload)
    }

    private func isCut(_ bytes: [UInt8], _ container: AudioDecoders.Container) -> Bool {
        ContainerLayout.isCut(MemoryByteSource(bytes), container: container)
    }

    func testMP4BoxesThatEndWithTheFileAreWhole() {
        let file = box("ftyp", payload: 12) + box("moov", payload: 100) + box("mdat", payload: 1000)
        XCTAssertFalse(isCut(file, .mp4))
        // Size 0: the last box runs to the end of the file.
        XCTAssertFalse(isCut(box("ftyp", payload: 12) + [0, 0, 0, 0] + Array("mdat".utf8) + [1, 2, 3], .mp4))
        // Size 1: a 64-bit size follows the type.
        let large: [UInt8] = [0, 0, 0, 1] + Array("mdat".utf8) + withUnsafeBytes(of: UInt64(20).bigEndian) { Array($0) } + [1, 2, 3, 4]
        XCTAssertFalse(isCut(box("ftyp", payload: 12) + large, .mp4))
    }

    func testMP4CutAnywhereIsCut() {
        let file = box("ftyp", payload: 12) + box("mdat", payload: 1000) + box("moov", payload: 100)
        for length in [4, 19, 27, 30, 500, file.count - 1] {
            XCTAssertTrue(isCut(Array(file.prefix(length)), .mp4), "cut to \(length)")
        }
        XCTAssertTrue(isCut(file + [0], .mp4), "a byte after the last box")
        XCTAssertTrue(isCut([0, 0, 0, 4] + Array("free".utf8), .mp4), "a box smaller than its header")
    }

    func testCAFChunksThatEndWithTheFileAreWhole() {
        let header = Array("caff".utf8) + [0, 1, 0, 0]
        XCTAssertFalse(isCut(header + cafChunk("desc", payload: 32) + cafChunk("data", payload: 100), .caf))
        // A data chunk of size -1 runs to the end.
        XCTAssertFalse(isCut(header + cafChunk("desc", payload: 32) + cafChunk("data", payload: 7, size: UInt64.max), .caf))
        XCTAssertTrue(isCut(header + cafChunk("desc", payload: 32, size: UInt64.max), .caf), "only data may run to the end")
        let whole = header + cafChunk("desc", payload: 32) + cafChunk("data", payload: 100) + cafChunk("pakt", payload: 24)
        XCTAssertTrue(isCut(Array(whole.prefix(whole.count - 1)), .caf))
    }
}
