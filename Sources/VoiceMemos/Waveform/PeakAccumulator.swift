/// Computes a memo's waveform peaks while its audio streams past: channels
/// mixed to mono as BBC audiowaveform does (the integer mean of the
/// channels' 16-bit samples), then the minimum and maximum of each block of
/// `samplesPerPixel` frames.
///
/// Memory stays bounded whatever the length: when the peaks reach
/// `maximumPixels`, neighbouring pairs merge and the block size doubles.
/// Blocks start at frame 0, so a merged pair is exactly what the doubled
/// block size would have given.
public struct PeakAccumulator {
    /// Frames per (min, max) pair now; doubles when the pairs fill up.
    public private(set) var samplesPerPixel: Int
    /// Pairs held before they merge.
    public let maximumPixels: Int
    /// The largest sample magnitude in any channel (up to 32768).
    public private(set) var peakMagnitude: Int32 = 0
    /// Frames seen so far.
    public private(set) var frames: Int64 = 0
    private var values: [Int16] = []
    private var currentMinimum = Int16.max
    private var currentMaximum = Int16.min
    private var currentCount = 0
    private var mixBuffer: [Int16] = []

    /// - Parameters:
    ///   - samplesPerPixel: the finest block size, in frames (a power of two
    ///     keeps merges exact).
    ///   - maximumPixels: how many pairs may be held before they merge; even.
    public init(samplesPerPixel: Int = 32, maximumPixels: Int = 1 << 20) {
        precondition(samplesPerPixel > 0 && maximumPixels >= 2 && maximumPixels % 2 == 0)
        self.samplesPerPixel = samplesPerPixel
        self.maximumPixels = maximumPixels
    }

    /// Adds `frameCount` interleaved frames of `channels` samples each.
    public mutating func add(_ samples: UnsafePointer<Int16>, frameCount: Int, channels: Int) {
        guard frameCount > 0 else { return }
        frames += Int64(frameCount)
        if channels == 1 {
            // Mono: the blocks' minima and maxima give the peak as well.
            addMono(samples, count: frameCount, tracksPeak: true)
            return
        }
        notePeak(UnsafeBufferPointer(start: samples, count: frameCount * channels))
        // Take the scratch buffer out of self while it is written, so that
        // addMono can mutate self without copying it.
        var mixed = mixBuffer
        mixBuffer = []
        if mixed.count < frameCount { mixed = [Int16](repeating: 0, count: frameCount) }
        mixed.withUnsafeMutableBufferPointer { buffer in
            PeakAccumulator.mix(samples, frameCount: frameCount, channels: channels, into: buffer.baseAddress!)
            addMono(buffer.baseAddress!, count: frameCount, tracksPeak: false)
        }
        mixBuffer = mixed
    }

    /// The peaks of everything added, the last block possibly partial.
    public mutating func finish() -> WaveformPeaks {
        if currentCount > 0 { appendCurrent() }
        return WaveformPeaks(samplesPerPixel: samplesPerPixel, frames: frames, values: values)
    }

    // MARK: - Private

    private mutating func addMono(_ samples: UnsafePointer<Int16>, count: Int, tracksPeak: Bool) {
        var index = 0
        while index < count {
            let take = min(count - index, samplesPerPixel - currentCount)
            var low = currentMinimum
            var high = currentMaximum
            // A plain loop over a contiguous block: the compiler vectorises it.
            for offset in index..<(index + take) {
                let value = samples[offset]
                low = value < low ? value : low
                high = value > high ? value : high
            }
            currentMinimum = low
            currentMaximum = high
            currentCount += take
            index += take
            if currentCount == samplesPerPixel {
                if tracksPeak { notePeak(low, high) }
                appendCurrent()
            }
        }
        if tracksPeak && currentCount > 0 { notePeak(currentMinimum, currentMaximum) }
    }

    private mutating func appendCurrent() {
        values.append(currentMinimum)
        values.append(currentMaximum)
        currentMinimum = .max
        currentMaximum = .min
        currentCount = 0
        if values.count / 2 >= maximumPixels { mergePairs() }
    }

    /// Halves the resolution: each two neighbouring pairs become one.
    private mutating func mergePairs() {
        let pairs = values.count / 2
        var merged: [Int16] = []
        merged.reserveCapacity(maximumPixels)
        var pair = 0
        while pair + 1 < pairs {
            merged.append(min(values[2 * pair], values[2 * pair + 2]))
            merged.append(max(values[2 * pair + 1], values[2 * pair + 3]))
            pair += 2
        }
        values = merged
        samplesPerPixel *= 2
    }

    private mutating func notePeak(_ low: Int16, _ high: Int16) {
        peakMagnitude = max(peakMagnitude, -Int32(low), Int32(high))
    }

    private mutating func notePeak(_ samples: UnsafeBufferPointer<Int16>) {
        var low = Int16.max
        var high = Int16.min
        for value in samples {
            low = value < low ? value : low
            high = value > high ? value : high
        }
        notePeak(low, high)
    }

    /// audiowaveform's mono mix: the sum of the channels divided by their
    /// count, truncated toward zero.
    static func mix(_ samples: UnsafePointer<Int16>, frameCount: Int, channels: Int,
                    into mixed: UnsafeMutablePointer<Int16>) {
        if channels == 2 {
            for frame in 0..<frameCount {
                mixed[frame] = Int16(truncatingIfNeeded: (Int32(samples[2 * frame]) + Int32(samples[2 * frame + 1])) / 2)
            }
            return
        }
        let divisor = Int32(channels)
        for frame in 0..<frameCount {
            var sum: Int32 = 0
            let base = frame * channels
            for channel in 0..<channels { sum += Int32(samples[base + channel]) }
            mixed[frame] = Int16(truncatingIfNeeded: sum / divisor)
        }
    }
}
