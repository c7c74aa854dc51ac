import Foundation

/// FFmpeg's command-line tools (Debian `ffmpeg`, which scripts/test installs):
/// the judges, independent of memoapp's code, of how long the AAC and ALAC
/// fixtures are and which samples they decode to.
public enum FFmpegTool {
    /// The first audio track's length in frames as ffprobe reads it
    /// (`duration_ts` in `time_base`, at `sample_rate`), and its rate, its
    /// channels; nil when ffprobe cannot say.
    public static func probe(_ path: String) -> (frames: Int64, sampleRate: Int, channels: Int)? {
        let result = runChildProcess("/usr/bin/ffprobe", [
            "-v", "error", "-select_streams", "a:0",
            "-show_entries", "stream=duration_ts,time_base,sample_rate,channels",
            "-of", "default=noprint_wrappers=1", path])
        guard result.status == 0 else { return nil }
        var fields: [String: String] = [:]
        for line in String(decoding: result.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        let base = (fields["time_base"] ?? "").split(separator: "/").compactMap { Int64($0) }
        guard let duration = fields["duration_ts"].flatMap({ Int64($0) }), base.count == 2, base[1] > 0,
              let rate = fields["sample_rate"].flatMap({ Int($0) }),
              let channels = fields["channels"].flatMap({ Int($0) }) else { return nil }
        // duration · num / den seconds at `rate` frames a second, rounded.
        let frames = (duration * base[0] * Int64(rate) + base[1] / 2) / base[1]
        return (frames, rate, channels)
    }

    /// The audio as ffmpeg decodes it to 16-bit samples, interleaved (its
    /// conversions are libsndfile's: floats rounded, deeper integers cut to
    /// their top 16 bits).
    public static func decode16(_ path: String) -> [Int16] {
        let result = runChildProcess("/usr/bin/ffmpeg", ["-v", "error", "-i", path, "-f", "s16le", "-"])
        guard result.status == 0 else { return [] }
        return result.stdout.withUnsafeBytes { raw in
            (0..<raw.count / 2).map { Int16(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 2, as: Int16.self)) }
        }
    }

    /// Runs ffmpeg with `arguments` (quiet, overwriting): true when it succeeded.
    @discardableResult
    public static func ffmpeg(_ arguments: [String]) -> Bool {
        runChildProcess("/usr/bin/ffmpeg", ["-v", "error", "-y"] + arguments).status == 0
    }
}
