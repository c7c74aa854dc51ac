/// A memo's waveform: for each block of `samplesPerPixel` frames of the mono
/// mix, its minimum and maximum 16-bit sample, interleaved (min, max, min, …).
/// It is stored with the memo, so peaks, pictures and the one-line waveform
/// never decode the audio again.
public struct WaveformPeaks: Equatable, Sendable {
    /// Frames per (min, max) pair.
    public let samplesPerPixel: Int
    /// The audio's length in frames (the last block may be partial).
    public let frames: Int64
    /// Interleaved minimum and maximum per block.
    public let values: [Int16]

    public init(samplesPerPixel: Int, frames: Int64, values: [Int16]) {
        self.samplesPerPixel = samplesPerPixel
        self.frames = frames
        self.values = values
    }

    /// How many (min, max) pairs there are.
    public var pixelCount: Int { values.count / 2 }

    /// The peaks at a coarser block size. Each output block covers frames
    /// [i·n, (i+1)·n) and takes the extremes of the stored blocks that overlap
    /// it, so the result is exact when `n` is a multiple of the stored size;
    /// otherwise a block may also see up to one stored block's worth of its
    /// neighbours' frames. A size finer than the stored one is not available:
    /// the stored size is used, and `samplesPerPixel` says so.
    ///
    /// Any request and any stored values give an answer, never a trap, and at
    /// most as many blocks as are stored: a length that the stored blocks do
    /// not cover (a damaged row) gets no blocks beyond them.
    public func resampled(toSamplesPerPixel requested: Int) -> WaveformPeaks {
        let size = max(requested, samplesPerPixel, 1)
        if size == samplesPerPixel { return self }
        let blockSize = Int64(size)
        let covered = coveredFrames
        let outputCount = Int(AudioLimits.ceilingDivision(covered, by: blockSize))
        var output = [Int16](repeating: 0, count: outputCount * 2)
        let stored = Int64(max(1, samplesPerPixel))
        let pixels = pixelCount
        values.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                for index in 0..<outputCount {
                    // index < ⌈covered / size⌉, so index · size < covered: no overflow.
                    let firstFrame = Int64(index) * blockSize
                    let endFrame = covered - firstFrame > blockSize ? firstFrame + blockSize : covered
                    let first = Int(firstFrame / stored)
                    let last = min(Int((endFrame - 1) / stored), pixels - 1)
                    var low = Int16.max
                    var high = Int16.min
                    if first <= last {
                        for pixel in first...last {
                            low = min(low, input[2 * pixel])
                            high = max(high, input[2 * pixel + 1])
                        }
                    } else {
                        low = 0
                        high = 0
                    }
                    out[2 * index] = low
                    out[2 * index + 1] = high
                }
            }
        }
        return WaveformPeaks(samplesPerPixel: size, frames: frames, values: output)
    }

    /// The peaks at no more than `width` blocks over the whole audio.
    public func resampled(toWidth width: Int) -> WaveformPeaks {
        let columns = Int64(max(1, width))
        let size = AudioLimits.ceilingDivision(coveredFrames, by: columns)
        return resampled(toSamplesPerPixel: Int(max(1, size)))
    }

    /// The frames both the length and the stored blocks account for.
    private var coveredFrames: Int64 {
        let (stored, overflow) = Int64(pixelCount).multipliedReportingOverflow(by: Int64(max(1, samplesPerPixel)))
        return max(0, min(frames, overflow ? Int64.max : stored))
    }

    // MARK: Storage

    /// Little-endian 16-bit values, as stored in the database.
    public var blob: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: values.count * 2)
        for (index, value) in values.enumerated() {
            let bits = UInt16(bitPattern: value)
            bytes[2 * index] = UInt8(truncatingIfNeeded: bits)
            bytes[2 * index + 1] = UInt8(truncatingIfNeeded: bits >> 8)
        }
        return bytes
    }

    /// Reads values stored by `blob`; nil when the blob is malformed.
    public init?(samplesPerPixel: Int, frames: Int64, blob: [UInt8]) {
        guard samplesPerPixel > 0, blob.count % 4 == 0 else { return nil }
        let values = [Int16](unsafeUninitializedCapacity: blob.count / 2) { buffer, count in
            blob.withUnsafeBufferPointer { bytes in
                for index in 0..<buffer.count {
                    buffer[index] = Int16(bitPattern: UInt16(bytes[2 * index]) | UInt16(bytes[2 * index + 1]) << 8)
                }
            }
            count = buffer.count
        }
        self.init(samplesPerPixel: samplesPerPixel, frames: frames, values: values)
    }
}
