#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg
import CSndFile
import MemoCore

/// AAC or ALAC in an MP4 or CAF container, decoded by FFmpeg over the
/// `TeeStream` (a custom `AVIOContext` whose reads and seeks are the
/// stream's), so the checksum and the copy see every byte once, in file
/// order, as with libsndfile. Only the MP4 and CAF demuxers are used, never
/// FFmpeg's probing, and only the AAC and ALAC decoders.
///
/// The length is the one the container states (`AVStream.duration`: for MP4
/// the edit list's or the track's, for CAF the packet table's valid frames),
/// which is the length ffprobe reports. An AAC encoder adds priming before
/// the audio (1024 frames from FFmpeg's encoder, 2112 from Apple's) and pads
/// the last packet to a whole 1024; the container says how much, FFmpeg
/// drops the priming as it decodes, and the decode is cut at the stated
/// length here, which drops the padding. A decode that ends before that
/// length is truncation, as in any other format; a container that states no
/// length gets the length of its decode.
/// See https://ffmpeg.org/doxygen/5.1/group__lavc__encdec.html for the
/// send/receive loop.
final class FFmpegDecoder: AudioDecoder {
    let stream: TeeStream
    private(set) var format: Int32
    private(set) var sampleRate: Int
    private(set) var channels: Int
    private(set) var promisedFrames: Int64?
    let allStrings: [Int32: String]
    /// `readFrames` into `Int16` scales floats itself.
    var hasFloatSamples: Bool { false }
    private(set) var decodeFailure: String?
    /// True when the file's top-level boxes do not end where it does (see
    /// `ContainerLayout`): a cut the decode itself may not notice.
    var isTruncated: Bool { ContainerLayout.isCut(stream.source, container: container) }

    private let av: LibAV
    private let container: AudioDecoders.Container
    private let demuxer: Demuxer
    private let codec: LibAV.CodecContext
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    private let streamIndex: Int32
    /// Frames of `frame` already handed out, and its frame count.
    private var frameOffset = 0
    private var frameCount = 0
    /// Frames handed out in all.
    private var delivered: Int64 = 0
    private var hasFirstFrame = false
    private var isDraining = false
    private var hasEnded = false
    private var isClosed = false

    /// Opens `stream` as `container`; `.failure` with FFmpeg's reason when it
    /// cannot be read, or holds no AAC or ALAC. Throws when FFmpeg cannot be loaded.
    static func open(_ stream: TeeStream, container: AudioDecoders.Container)
        throws -> Result<FFmpegDecoder, SoundFileError> {
        let av = try LibAV.loaded()
        _ = stream.seek(0, whence: SEEK_SET)
        let demuxer: Demuxer
        switch Demuxer.open(stream, container: container, av: av) {
        case let .success(opened): demuxer = opened
        case let .failure(error): return .failure(error)
        }
        guard let track = demuxer.firstAudioStream() else {
            return .failure(SoundFileError(reason: "it holds no audio track"))
        }
        let (index, parameters) = track
        let codecID = parameters.pointee.codec_id
        let containerName = container == .mp4 ? "MP4" : "CAF"
        guard codecID == AV_CODEC_ID_AAC || codecID == AV_CODEC_ID_ALAC else {
            return .failure(SoundFileError(
                reason: "its audio is \(av.name(of: codecID)); memoapp reads AAC and ALAC in \(containerName)"))
        }
        guard let decoder = av.findDecoder(codecID), let codec = av.allocCodecContext(decoder) else {
            return .failure(SoundFileError(reason: "this FFmpeg has no \(av.name(of: codecID)) decoder"))
        }
        var status = av.parametersToContext(codec, parameters)
        if status >= 0 {
            // The time base of the packets' timestamps, which the priming to skip is counted in.
            codec.pointee.pkt_timebase = demuxer.timeBase(of: index)
            status = av.openCodec(codec, decoder, nil)
        }
        var allocatedPacket = av.allocPacket()
        var allocatedFrame = av.allocFrame()
        guard status >= 0, let packet = allocatedPacket, let frame = allocatedFrame else {
            var unusedCodec: LibAV.CodecContext? = codec
            av.freeCodecContext(&unusedCodec)
            av.freePacket(&allocatedPacket)
            av.freeFrame(&allocatedFrame)
            return .failure(SoundFileError(reason: status < 0 ? av.describe(status) : "out of memory"))
        }
        let opened = FFmpegDecoder(stream: stream, av: av, container: container, demuxer: demuxer, codec: codec,
                                   packet: packet, frame: frame, streamIndex: index, parameters: parameters.pointee)
        // The first frame tells the real rate and channels (HE-AAC's header
        // states half its rate) and ALAC's depth. A source that fails there is
        // refused now; one that decodes to nothing is refused by the scan, as
        // any empty one is.
        let hasAudio = opened.nextFrame()
        if !hasAudio, let failure = opened.decodeFailure {
            return .failure(SoundFileError(reason: failure))
        }
        let major = container == .mp4 ? AudioFormat.mp4 : Int32(SF_FORMAT_CAF)
        opened.format = major | subtype(parameters.pointee, firstFrame: hasAudio ? frame.pointee.format : nil)
        opened.promisedFrames = demuxer.statedFrames(of: index, sampleRate: opened.sampleRate)
        return .success(opened)
    }

    private init(stream: TeeStream, av: LibAV, container: AudioDecoders.Container, demuxer: Demuxer,
                 codec: LibAV.CodecContext, packet: UnsafeMutablePointer<AVPacket>, frame: UnsafeMutablePointer<AVFrame>,
                 streamIndex: Int32, parameters: AVCodecParameters) {
        self.stream = stream
        self.av = av
        self.container = container
        self.demuxer = demuxer
        self.codec = codec
        self.packet = packet
        self.frame = frame
        self.streamIndex = streamIndex
        demuxer.discardAll(but: streamIndex)
        allStrings = demuxer.strings()
        sampleRate = Int(parameters.sample_rate)
        channels = Int(parameters.ch_layout.nb_channels)
        format = 0
    }

    deinit {
        close()
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av.freePacket(&packet)
        var frame: UnsafeMutablePointer<AVFrame>? = frame
        av.freeFrame(&frame)
    }

    func readFrames(_ buffer: UnsafeMutablePointer<Int16>, count: Int) -> Int { read(into: buffer, count: count) }
    func readFrames(_ buffer: UnsafeMutablePointer<Int32>, count: Int) -> Int { read(into: buffer, count: count) }
    func readFrames(_ buffer: UnsafeMutablePointer<Float>, count: Int) -> Int { read(into: buffer, count: count) }

    /// FFmpeg seeks to a packet, not a frame, and AAC needs the packet before
    /// the one it seeks to: reading up to the frame is exact instead.
    func seek(toFrame frame: Int64) -> Bool { false }

    func finish() throws {
        close()
        try stream.finish()
    }

    // MARK: - Private

    /// The encoding's code: AAC, or ALAC at its depth (16-bit when it decodes
    /// to 16-bit samples, else as its header states).
    private static func subtype(_ parameters: AVCodecParameters, firstFrame sampleFormat: Int32?) -> Int32 {
        guard parameters.codec_id == AV_CODEC_ID_ALAC else { return AudioFormat.aac }
        let is16Bit = sampleFormat.map { [AV_SAMPLE_FMT_S16, AV_SAMPLE_FMT_S16P].contains(AVSampleFormat(rawValue: $0)) }
        if is16Bit == true { return Int32(SF_FORMAT_ALAC_16) }
        switch parameters.bits_per_raw_sample {
        case 16: return Int32(SF_FORMAT_ALAC_16)
        case 20: return Int32(SF_FORMAT_ALAC_20)
        case 32: return Int32(SF_FORMAT_ALAC_32)
        default: return Int32(SF_FORMAT_ALAC_24)
        }
    }

    /// Fills `buffer` with up to `count` frames, interleaved; fewer at the
    /// end of the audio (the stated length) or on a failure.
    private func read<Sample: DecodedSample>(into buffer: UnsafeMutablePointer<Sample>, count: Int) -> Int {
        var done = 0
        while done < count {
            if frameOffset == frameCount {
                guard nextFrame() else { break }
                continue
            }
            var take = min(count - done, frameCount - frameOffset)
            if let promised = promisedFrames {
                // The padding after the stated length is not audio.
                take = Int(min(Int64(take), promised - delivered))
                if take <= 0 { break }
            }
            SampleInterleaver.copy(frame.pointee, from: frameOffset, count: take, channels: channels,
                                   into: buffer + done * channels)
            frameOffset += take
            done += take
            delivered += Int64(take)
        }
        return done
    }

    /// Decodes the next frame of the track into `frame`; false at the end of
    /// the stream or on a failure (then `decodeFailure` says which).
    private func nextFrame() -> Bool {
        frameOffset = 0
        frameCount = 0
        guard !hasEnded, !isClosed, decodeFailure == nil else { return false }
        while true {
            let received = av.receiveFrame(codec, frame)
            if received == 0 {
                if !hasFirstFrame {
                    hasFirstFrame = true
                    sampleRate = Int(frame.pointee.sample_rate)
                    channels = Int(frame.pointee.ch_layout.nb_channels)
                }
                guard let problem = unreadable(frame.pointee) else {
                    frameCount = Int(frame.pointee.nb_samples)
                    if frameCount > 0 { return true }
                    continue
                }
                decodeFailure = problem
                return false
            }
            if received == LibAV.endOfFile || (received == LibAV.wantsInput && isDraining) {
                hasEnded = true
                return false
            }
            guard received == LibAV.wantsInput else { return fail(received) }
            let status = demuxer.read(into: packet)
            if status == LibAV.endOfFile {
                // No more packets: flush what the decoder holds.
                isDraining = true
                let flushed = av.sendPacket(codec, nil)
                if flushed < 0 && flushed != LibAV.endOfFile { return fail(flushed) }
                continue
            }
            guard status >= 0 else { return fail(status) }
            defer { av.unrefPacket(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            // libavformat marks a packet the file ends inside of.
            guard packet.pointee.flags & AV_PKT_FLAG_CORRUPT == 0 else {
                decodeFailure = "a packet is cut short"
                return false
            }
            let sent = av.sendPacket(codec, packet)
            if sent < 0 { return fail(sent) }
        }
    }

    private func fail(_ status: Int32) -> Bool {
        decodeFailure = av.describe(status)
        return false
    }

    /// Why a decoded frame cannot be taken: samples of a kind memoapp does
    /// not convert, or a rate or channel count other than the first frame's.
    private func unreadable(_ decoded: AVFrame) -> String? {
        guard SampleInterleaver.reads(decoded.format) else {
            return "FFmpeg decodes it to samples of a kind memoapp does not read (format \(decoded.format))"
        }
        guard Int(decoded.sample_rate) == sampleRate && Int(decoded.ch_layout.nb_channels) == channels else {
            return "its sample rate or channel count changes part-way"
        }
        return nil
    }

    private func close() {
        guard !isClosed else { return }
        isClosed = true
        var codec: LibAV.CodecContext? = codec
        av.freeCodecContext(&codec)
        demuxer.close()
    }
}
