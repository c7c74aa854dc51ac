/// The ranges every number about audio is held to, wherever it comes from
/// (a file's header, an import document, an argument): what the module can
/// compute with, so that no arithmetic on a stored value can overflow.
public enum AudioLimits {
    /// Samples per frame: headers beyond this are absurd for a voice memo (and for memory).
    public static let channels = 1...64

    /// Frames per second accepted from a header or a setting.
    public static let sampleRates = 1...768_000

    /// Frames in one memo: at most 2^53, which a Double (durations, and the
    /// numbers of the JSON documents) holds exactly, and which times the
    /// largest rate, channel count or sample size stays far inside Int64.
    /// 2^53 frames at 768 kHz is 371 years.
    public static let frames: ClosedRange<Int64> = 1...(1 << 53)

    /// The frame at `seconds` into audio of `sampleRate` frames per second,
    /// rounded to the nearest; nil when that is not a number of frames the
    /// module holds (negative, not finite, beyond `frames`).
    public static func frame(atSeconds seconds: Double, sampleRate: Int) -> Int64? {
        guard seconds.isFinite, seconds >= 0, sampleRates.contains(sampleRate) else { return nil }
        guard let frame = Int64(exactly: (seconds * Double(sampleRate)).rounded()),
              frame <= frames.upperBound else { return nil }
        return frame
    }

    /// ⌈value / divisor⌉ for value ≥ 0 and divisor > 0, without the overflow
    /// of `(value + divisor - 1) / divisor`.
    public static func ceilingDivision(_ value: Int64, by divisor: Int64) -> Int64 {
        precondition(value >= 0 && divisor > 0)
        return value / divisor + (value % divisor == 0 ? 0 : 1)
    }
}
