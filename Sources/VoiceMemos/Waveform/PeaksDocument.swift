import MemoCore

/// Peaks in the layout of BBC audiowaveform's JSON format, version 2, which
/// waveform front ends such as peaks.js draw directly:
/// `{"version":2,"channels":1,"sample_rate":…,"samples_per_pixel":…,
/// "bits":8|16,"length":…,"data":[min,max,…]}`.
/// See https://github.com/bbc/audiowaveform/blob/master/doc/DataFormat.md
public struct PeaksDocument: Equatable, Sendable {
    public let sampleRate: Int
    public let samplesPerPixel: Int
    /// 8 or 16: 8-bit values are the 16-bit ones divided by 256 (toward zero).
    public let bits: Int
    /// Interleaved minimum and maximum per pixel, at `bits` resolution.
    public let data: [Int16]

    public init(peaks: WaveformPeaks, sampleRate: Int, bits: Int = 16) {
        precondition(bits == 8 || bits == 16)
        self.sampleRate = sampleRate
        self.samplesPerPixel = peaks.samplesPerPixel
        self.bits = bits
        self.data = bits == 16 ? peaks.values : peaks.values.map { $0 / 256 }
    }

    /// Pixels: (min, max) pairs.
    public var length: Int { data.count / 2 }

    /// The document as a JSON value (for a small one; see `jsonText`).
    public var json: JSON {
        .object([
            ("version", .int(2)), ("channels", .int(1)), ("sample_rate", .int(sampleRate)),
            ("samples_per_pixel", .int(samplesPerPixel)), ("bits", .int(bits)), ("length", .int(length)),
            ("data", .array(data.map { .int(Int($0)) })),
        ])
    }

    /// The same document serialised directly: an hour of audio holds a
    /// million numbers, which this writes in milliseconds.
    public var jsonText: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(120 + data.count * 7)
        func append(_ text: String) { bytes.append(contentsOf: text.utf8) }
        append("{\"version\":2,\"channels\":1,\"sample_rate\":\(sampleRate),\"samples_per_pixel\":\(samplesPerPixel),")
        append("\"bits\":\(bits),\"length\":\(length),\"data\":[")
        var digits = [UInt8](repeating: 0, count: 8)
        for (index, value) in data.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            var magnitude = Int(value)
            if magnitude < 0 {
                bytes.append(UInt8(ascii: "-"))
                magnitude = -magnitude
            }
            var count = 0
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            while count > 0 {
                count -= 1
                bytes.append(digits[count])
            }
        }
        append("]}")
        return String(decoding: bytes, as: UTF8.self)
    }
}
