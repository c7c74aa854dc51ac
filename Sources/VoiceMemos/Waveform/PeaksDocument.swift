import MemoCore

/// Peaks in the layout of BBC audiowaveform's JSON format, version 2, which
/// waveform front ends such as peaks.js draw directly:
/// `{"version":2,"channels":1,"sample_rate":…,"samples_per_pixel":…,
/// "bits":8|16,"length":…,"data":[min,max,…]}`.
/// See https://github.com/bbc/audiowaveform/blob/master/doc/DataFormat.md
public struct PeaksDocument: Equatable, Sendable {
    /// The audio's frames per second.
    public let sampleRate: Int
    /// Frames per (min, max) pair.
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

    /// The same document serialised directly into the string's storage: an
    /// hour of audio holds over a million numbers, which this writes in a few
    /// milliseconds (`voice peaks` must answer within 50 ms).
    public var jsonText: String {
        let header = "{\"version\":2,\"channels\":1,\"sample_rate\":\(sampleRate),\"samples_per_pixel\":\(samplesPerPixel),"
            + "\"bits\":\(bits),\"length\":\(length),\"data\":["
        // At most "-32768," per value.
        let capacity = header.utf8.count + data.count * 7 + 2
        return String(unsafeUninitializedCapacity: capacity) { output in
            var position = 0
            for byte in header.utf8 {
                output[position] = byte
                position += 1
            }
            data.withUnsafeBufferPointer { values in
                for index in 0..<values.count {
                    if index > 0 {
                        output[position] = UInt8(ascii: ",")
                        position += 1
                    }
                    var magnitude = Int(values[index])
                    if magnitude < 0 {
                        output[position] = UInt8(ascii: "-")
                        position += 1
                        magnitude = -magnitude
                    }
                    // Digits of at most 32768, most significant first.
                    var divisor = 10000
                    while divisor > magnitude && divisor > 1 { divisor /= 10 }
                    while divisor > 0 {
                        output[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude / divisor)
                        position += 1
                        magnitude %= divisor
                        divisor /= 10
                    }
                }
            }
            output[position] = UInt8(ascii: "]")
            output[position + 1] = UInt8(ascii: "}")
            return position + 2
        }
    }
}
