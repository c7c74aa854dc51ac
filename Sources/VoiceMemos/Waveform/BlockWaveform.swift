/// A one-line picture of a whole memo in block characters (▁▂▃▄▅▆▇█), one
/// per column, scaled to the memo's own loudest moment so that quiet
/// recordings still show their shape.
public enum BlockWaveform {
    static let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// `width` characters (fewer when the memo has fewer stored pixels).
    public static func line(peaks: WaveformPeaks, width: Int) -> String {
        guard width > 0, peaks.pixelCount > 0 else { return "" }
        let columns = peaks.resampled(toWidth: width)
        var magnitudes: [Int32] = []
        magnitudes.reserveCapacity(columns.pixelCount)
        for pixel in 0..<columns.pixelCount {
            let low = -Int32(columns.values[2 * pixel])
            let high = Int32(columns.values[2 * pixel + 1])
            magnitudes.append(max(0, low, high))
        }
        let loudest = max(1, magnitudes.max() ?? 1)
        var line = ""
        for magnitude in magnitudes {
            let level = Int((Int64(magnitude) * 8 - 1) / Int64(loudest))
            line.append(blocks[min(7, max(0, level))])
        }
        return line
    }
}
