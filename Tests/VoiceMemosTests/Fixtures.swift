import CSndFile
import Foundation
import MemoCore
import SQLite
import TestSupport
import XCTest
@testable import VoiceMemos

/// The committed audio fixtures (scripts/make-voice-fixtures makes them).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("fixtures/audio").path

    static func path(_ name: String) -> String { folder + "/" + name }

    static func bytes(_ name: String) -> [UInt8] {
        [UInt8](FileManager.default.contents(atPath: path(name))!)
    }

    static let good = ["tone-mono-16k.wav", "chord-stereo-22k.flac", "korean-title.ogg", "beep.mp3", "voice.opus",
                       "sweep-24bit.aiff", "float-mono.caf", "flac-named.wav"]
}

/// A fixed clock for stores under test.
struct FixedClock: WallClock {
    var time = Timestamp(secondsSince1970: 1_800_000_000)
    func now() -> Timestamp { time }
}

/// A store on a fresh database in a fresh temporary folder.
final class StoreHarness {
    let folder = TemporaryDirectory()
    let connection: Connection
    let store: VoiceStore

    init() throws {
        connection = try Connection(path: folder.appending("memoapp.db"))
        var migrator = Migrator()
        migrator.register(VoiceStore.migrations)
        try migrator.apply(to: connection)
        store = VoiceStore(connection: connection, directory: folder.appending("voice"), clock: FixedClock())
    }

    /// Names in the library folder (none when it does not exist).
    var libraryFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: store.directory)) ?? []).sorted()
    }

    var rowCount: Int {
        (try? connection.queryFirst("SELECT count(*) FROM voice_memos") { $0.int(0) }) ?? -1
    }

    /// A fresh store on the same database and folder (another "process").
    func reopenedStore() -> VoiceStore {
        VoiceStore(connection: connection, directory: store.directory, clock: FixedClock())
    }
}

/// Reference decoding straight through libsndfile, independent of the
/// module: interleaved 16-bit samples.
enum Reference {
    static func decode(_ path: String) -> (samples: [Int16], channels: Int, rate: Int) {
        var info = SF_INFO()
        guard let file = sf_open(path, Int32(SFM_READ), &info) else { return ([], 0, 0) }
        defer { sf_close(file) }
        let subtype = Int(info.format) & SF_FORMAT_SUBMASK
        if subtype == SF_FORMAT_FLOAT || subtype == SF_FORMAT_DOUBLE {
            // Float samples: read as doubles and scale by hand (x·32768, clipped).
            var samples: [Int16] = []
            var block = [Double](repeating: 0, count: 1024 * Int(info.channels))
            while true {
                let count = block.withUnsafeMutableBufferPointer { sf_readf_double(file, $0.baseAddress, 1024) }
                if count <= 0 { break }
                for value in block[0..<Int(count) * Int(info.channels)] {
                    let scaled: Double = (value * 32768).rounded()
                    samples.append(Int16(Swift.max(-32768.0, Swift.min(32767.0, scaled))))
                }
            }
            return (samples, Int(info.channels), Int(info.samplerate))
        }
        var samples: [Int16] = []
        var block = [Int16](repeating: 0, count: 1024 * Int(info.channels))
        while true {
            let count = block.withUnsafeMutableBufferPointer { sf_readf_short(file, $0.baseAddress, 1024) }
            if count <= 0 { break }
            samples += block[0..<Int(count) * Int(info.channels)]
        }
        return (samples, Int(info.channels), Int(info.samplerate))
    }

    /// audiowaveform's peaks, computed the plain way: mean of the channels
    /// (truncated), then min and max of each block of frames.
    static func peaks(samples: [Int16], channels: Int, samplesPerPixel: Int) -> [Int16] {
        let frames = samples.count / channels
        var values: [Int16] = []
        var start = 0
        while start < frames {
            let end = min(start + samplesPerPixel, frames)
            var low = Int16.max
            var high = Int16.min
            for frame in start..<end {
                var sum = 0
                for channel in 0..<channels { sum += Int(samples[frame * channels + channel]) }
                let mono = Int16(sum / channels)
                low = min(low, mono)
                high = max(high, mono)
            }
            values += [low, high]
            start = end
        }
        return values
    }

    /// Writes a file with libsndfile: `frames` frames of a deterministic signal.
    static func write(_ path: String, format: Int32, rate: Int, channels: Int, frames: Int,
                      title: String? = nil) {
        var info = SF_INFO()
        info.format = format
        info.samplerate = Int32(rate)
        info.channels = Int32(channels)
        let file = sf_open(path, Int32(SFM_WRITE), &info)!
        if let title { sf_set_string(file, Int32(SF_STR_TITLE), title) }
        var block = [Int16](repeating: 0, count: channels)
        for frame in 0..<frames {
            for channel in 0..<channels {
                block[channel] = Int16(truncatingIfNeeded: (frame * 37 + channel * 1000) % 20000 - 10000)
            }
            _ = block.withUnsafeBufferPointer { sf_writef_short(file, $0.baseAddress, 1) }
        }
        sf_close(file)
    }
}
