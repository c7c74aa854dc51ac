import Foundation
import TestSupport
import XCTest

/// Helpers for the voice end-to-end tests: fixtures, a data home with the
/// onboarding done, and what the library folder holds.
struct VoiceHome {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/audio").path

    let folder = TemporaryDirectory()
    let app: Memoapp

    init(onboarded: Bool = true) {
        app = Memoapp(home: folder.appending("home"))
        if onboarded { app.onboard() }
    }

    static func fixture(_ name: String) -> String { fixtures + "/" + name }

    /// Files in voice/, hidden ones included.
    var libraryFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: app.home + "/voice")) ?? []).sorted()
    }

    /// Memos as `voice list --json` reports them.
    func memos(file: StaticString = #filePath, line: UInt = #line) -> [[String: Any]] {
        app.run("voice", "list", "--json").array(file: file, line: line)
    }

    /// Imports a file, expecting success; returns the memo's JSON.
    @discardableResult
    func importFile(_ path: String, _ extra: String..., file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let result = app.run(["voice", "import", path, "--json"] + extra)
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        return result.object(file: file, line: line)
    }
}

/// A 16-bit PCM WAV written by hand, so that tests know every sample
/// without asking libsndfile.
enum HandMadeWAV {
    /// A 32-bit float WAV (format 3) of `samples`, mono: any bit pattern,
    /// NaN and the infinities included.
    static func floatBytes(samples: [Float], rate: Int) -> Data {
        var data = Data()
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append32(36 + samples.count * 4)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append32(16)
        append16(3); append16(1); append32(rate); append32(rate * 4); append16(4); append16(32)
        data.append(contentsOf: Array("data".utf8)); append32(samples.count * 4)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func bytes(samples: [Int16], channels: Int, rate: Int) -> Data {
        var data = Data()
        func append32(_ value: Int) { withUnsafeBytes(of: UInt32(value).littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: Int) { withUnsafeBytes(of: UInt16(value).littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append32(36 + samples.count * 2)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append32(16)
        append16(1); append16(channels); append32(rate); append32(rate * channels * 2); append16(channels * 2); append16(16)
        data.append(contentsOf: Array("data".utf8)); append32(samples.count * 2)
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    /// audiowaveform's peaks of those samples: channel mean truncated toward
    /// zero, then min and max per block.
    static func peaks(samples: [Int16], channels: Int, samplesPerPixel: Int) -> [Int] {
        let frames = samples.count / channels
        var values: [Int] = []
        for start in stride(from: 0, to: frames, by: samplesPerPixel) {
            let mono = (start..<min(start + samplesPerPixel, frames)).map { frame -> Int in
                (0..<channels).map { Int(samples[frame * channels + $0]) }.reduce(0, +) / channels
            }
            values += [mono.min()!, mono.max()!]
        }
        return values
    }
}
