import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 5 (which adds the address
/// sanitizer and a thousand random mutants): the fixtures of every container
/// cut short and with header fields overwritten, deterministically. Each
/// import exits 0 (still decodes) or 65 with nothing stored; never a crash.
final class TortureAudioEndToEndTests: XCTestCase {
    func testMutatedFilesOfEveryContainerAreStoredOrRefusedCleanly() throws {
        let home = VoiceHome()
        let app = home.app
        let seeds = ["tone-mono-16k.wav", "chord-stereo-22k.flac", "korean-title.ogg", "beep.mp3",
                     "sweep-24bit.aiff", "float-mono.caf"]
        var refused = 0
        for seed in seeds {
            let original = try Data(contentsOf: URL(fileURLWithPath: VoiceHome.fixture(seed)))
            for (index, mutant) in mutants(of: original).enumerated() {
                let path = home.folder.appending("mutant-\(index)." + (seed.split(separator: ".").last ?? "x"))
                try mutant.write(to: URL(fileURLWithPath: path))
                let before = home.libraryFiles
                let result = app.run(["voice", "import", path, "--json"], timeout: 20)
                let label = "\(seed) mutant \(index)"
                XCTAssertTrue(result.status == 0 || result.status == 65, "\(label): exit \(result.status) \(result.stderr)")
                if result.status == 65 {
                    refused += 1
                    XCTAssertEqual(result.errorCode, "bad_input", label)
                    XCTAssertEqual(home.libraryFiles, before, "\(label): refused but voice/ changed")
                } else if result.status == 0 {
                    XCTAssertEqual(app.run("voice", "rm", String(result.object()["id"] as? Int ?? 0)).status, 0)
                }
            }
        }
        XCTAssertGreaterThan(refused, seeds.count, "the mutants should mostly be refused")
        // Each accepted mutant was removed again: any memo left came from a refusal.
        XCTAssertEqual(home.memos().count, 0, "a refused import stored a memo")
        // The removed ones' audio is kept for undo, beside the library.
        XCTAssertEqual(home.libraryFiles.filter { $0 != ".undo" }, [])
        XCTAssertEqual(app.doctor().status, 0)
    }

    /// Cut to a few sizes; header fields at fixed offsets set to 0 and a huge
    /// value; one byte flipped in every 64 of the first 512.
    private func mutants(of data: Data) -> [Data] {
        var result = [data.prefix(12), data.prefix(44), data.prefix(data.count / 3)]
        for offset in [4, 8, 20, 24, 40] where offset + 4 <= data.count {
            for value: [UInt8] in [[0, 0, 0, 0], [0xFF, 0xFF, 0xFF, 0x7F]] {
                var copy = data
                copy.replaceSubrange(offset..<(offset + 4), with: value)
                result.append(copy)
            }
        }
        var flipped = data
        for offset in stride(from: 0, to: min(512, flipped.count), by: 64) { flipped[offset] ^= 0x5A }
        result.append(flipped)
        return result
    }
}
