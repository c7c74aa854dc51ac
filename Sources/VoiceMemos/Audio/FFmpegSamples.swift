import CFFmpeg

/// A sample type `AudioDecoder.readFrames` fills, converted from what FFmpeg
/// decodes with libsndfile's scaling: integers keep their top bits (16-bit
/// full scale is ±32768 whatever the depth), floats are full scale at ±1.0,
/// scaled by 2^15 or 2^31, clipped, NaN as 0. Halves round to even, as
/// FFmpeg's own conversion (`lrintf` in libswresample) rounds them, so the
/// samples, and the peaks made of them, are the ones `ffmpeg -f s16le` gives.
protocol DecodedSample {
    init(unsigned8 value: UInt8)
    init(pcm16 value: Int16)
    init(pcm32 value: Int32)
    init(float value: Float)
    init(double value: Double)
}

extension Int16: DecodedSample {
    init(unsigned8 value: UInt8) { self = Int16(Int(value) - 128) << 8 }
    init(pcm16 value: Int16) { self = value }
    init(pcm32 value: Int32) { self = Int16(truncatingIfNeeded: value >> 16) }
    init(float value: Float) { self.init(double: Double(value)) }
    init(double value: Double) {
        let scaled = (value * 32768).rounded(.toNearestOrEven)
        if scaled.isNaN {
            self = 0
        } else {
            self = Int16(Swift.max(-32768, Swift.min(32767, scaled)))
        }
    }
}

extension Int32: DecodedSample {
    init(unsigned8 value: UInt8) { self = Int32(Int(value) - 128) << 24 }
    init(pcm16 value: Int16) { self = Int32(value) << 16 }
    init(pcm32 value: Int32) { self = value }
    init(float value: Float) { self.init(double: Double(value)) }
    init(double value: Double) {
        let scaled = (value * 2_147_483_648).rounded(.toNearestOrEven)
        if scaled.isNaN {
            self = 0
        } else {
            self = Int32(Swift.max(-2_147_483_648, Swift.min(2_147_483_647, scaled)))
        }
    }
}

extension Float: DecodedSample {
    init(unsigned8 value: UInt8) { self = Float(Int(value) - 128) / 128 }
    init(pcm16 value: Int16) { self = Float(value) / 32768 }
    init(pcm32 value: Int32) { self = Float(Double(value) / 2_147_483_648) }
    init(float value: Float) { self = value }
    init(double value: Double) { self = Float(value) }
}

/// Copies frames out of a decoded `AVFrame`, planar (one plane a channel, as
/// FFmpeg's AAC and ALAC decoders give them) or interleaved, into an
/// interleaved buffer, converting each sample.
enum SampleInterleaver {
    /// Whether `format` (an `AVSampleFormat`) is one `copy` converts.
    static func reads(_ format: Int32) -> Bool {
        layout(format) != nil
    }

    /// Copies `count` frames from frame `first` of `frame` into `output`.
    static func copy<Sample: DecodedSample>(_ frame: AVFrame, from first: Int, count: Int, channels: Int,
                                            into output: UnsafeMutablePointer<Sample>) {
        guard let (kind, isPlanar) = layout(frame.format) else { return }
        switch kind {
        case .unsigned8: copy(UInt8.self, frame, first, count, channels, isPlanar, output, Sample.init(unsigned8:))
        case .pcm16: copy(Int16.self, frame, first, count, channels, isPlanar, output, Sample.init(pcm16:))
        case .pcm32: copy(Int32.self, frame, first, count, channels, isPlanar, output, Sample.init(pcm32:))
        case .float: copy(Float.self, frame, first, count, channels, isPlanar, output, Sample.init(float:))
        case .double: copy(Double.self, frame, first, count, channels, isPlanar, output, Sample.init(double:))
        }
    }

    // MARK: - Private

    private enum Kind { case unsigned8, pcm16, pcm32, float, double }

    private static func layout(_ format: Int32) -> (Kind, isPlanar: Bool)? {
        switch AVSampleFormat(rawValue: format) {
        case AV_SAMPLE_FMT_U8: return (.unsigned8, false)
        case AV_SAMPLE_FMT_U8P: return (.unsigned8, true)
        case AV_SAMPLE_FMT_S16: return (.pcm16, false)
        case AV_SAMPLE_FMT_S16P: return (.pcm16, true)
        case AV_SAMPLE_FMT_S32: return (.pcm32, false)
        case AV_SAMPLE_FMT_S32P: return (.pcm32, true)
        case AV_SAMPLE_FMT_FLT: return (.float, false)
        case AV_SAMPLE_FMT_FLTP: return (.float, true)
        case AV_SAMPLE_FMT_DBL: return (.double, false)
        case AV_SAMPLE_FMT_DBLP: return (.double, true)
        default: return nil
        }
    }

    private static func copy<Source, Sample>(
        _: Source.Type, _ frame: AVFrame, _ first: Int, _ count: Int, _ channels: Int, _ isPlanar: Bool,
        _ output: UnsafeMutablePointer<Sample>, _ convert: (Source) -> Sample
    ) {
        for channel in 0..<channels {
            let plane = UnsafeRawPointer(frame.extended_data[isPlanar ? channel : 0]!).assumingMemoryBound(to: Source.self)
            var input = isPlanar ? first : first * channels + channel
            let step = isPlanar ? 1 : channels
            var index = channel
            for _ in 0..<count {
                output[index] = convert(plane[input])
                input += step
                index += channels
            }
        }
    }
}
