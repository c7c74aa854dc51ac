#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg
import MemoCore

/// FFmpeg's libraries (libavformat for the container, libavcodec for AAC and
/// ALAC, libavutil for their buffers), resolved the first time a file that
/// libsndfile cannot read needs them, as `LibSndFile` is (see `SharedLibrary`):
/// only such an import, or a command reading such a memo, pays for them.
///
/// Only libavformat is opened: it needs libavcodec and libavutil, so the
/// loader brings them in with it, and `dlsym` on its handle finds their
/// functions too. The soname's number is the header's major version, since
/// `FFmpegDecoder` reads FFmpeg's structs with the layout of these headers.
/// Each property is the FFmpeg function of the same name
/// (https://ffmpeg.org/doxygen/5.1/), e.g. `readFrame` is `av_read_frame`.
public struct LibAV: Sendable {
    /// The soname `dlopen` looks up, e.g. `libavformat.so.59`.
    public static let soname = "libavformat.so.\(cffmpeg_libavformat_major)"
    /// The Debian package that installs it (and, through it, libavcodec and libavutil).
    public static let debianPackage = "libavformat\(cffmpeg_libavformat_major)"

    private static let shared = SharedLibrary.load(
        soname, debianPackage: debianPackage,
        purpose: Localized(en: "AAC and ALAC audio (FFmpeg)", ko: "AAC·ALAC 오디오(FFmpeg)"),
        resolving: LibAV.init(resolvingFrom:))

    /// FFmpeg, loaded on the first call; an `internalFailure` naming the
    /// library and its Debian package when it is missing or lacks a function.
    public static func loaded() throws -> LibAV {
        try shared.get()
    }

    /// libavformat's version, e.g. `59.27.100`.
    public var version: String {
        let number = formatVersion()
        return "\(number >> 16).\(number >> 8 & 0xFF).\(number & 0xFF)"
    }

    /// `AVERROR_EOF`: the end of the input, or of the decoder's output.
    static let endOfFile = Int32(cffmpeg_error_eof)
    /// `AVERROR(EAGAIN)`: the decoder wants input before it has output.
    static let wantsInput = Int32(cffmpeg_error_again)

    typealias FormatContext = UnsafeMutablePointer<AVFormatContext>
    typealias CodecContext = UnsafeMutablePointer<AVCodecContext>

    // libavformat
    let allocFormatContext: @convention(c) () -> FormatContext?
    let openInput: @convention(c) (UnsafeMutablePointer<FormatContext?>?, UnsafePointer<CChar>?,
                                   UnsafePointer<AVInputFormat>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let closeInput: @convention(c) (UnsafeMutablePointer<FormatContext?>?) -> Void
    let findInputFormat: @convention(c) (UnsafePointer<CChar>?) -> UnsafePointer<AVInputFormat>?
    let readFrame: @convention(c) (FormatContext?, UnsafeMutablePointer<AVPacket>?) -> Int32
    let allocIOContext: @convention(c) (
        UnsafeMutablePointer<UInt8>?, Int32, Int32, UnsafeMutableRawPointer?,
        (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32)?,
        (@convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32)?,
        (@convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64)?) -> UnsafeMutablePointer<AVIOContext>?
    let freeIOContext: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVIOContext>?>?) -> Void
    // libavcodec
    let findDecoder: @convention(c) (AVCodecID) -> UnsafePointer<AVCodec>?
    let codecName: @convention(c) (AVCodecID) -> UnsafePointer<CChar>?
    let allocCodecContext: @convention(c) (UnsafePointer<AVCodec>?) -> CodecContext?
    let freeCodecContext: @convention(c) (UnsafeMutablePointer<CodecContext?>?) -> Void
    let parametersToContext: @convention(c) (CodecContext?, UnsafePointer<AVCodecParameters>?) -> Int32
    let openCodec: @convention(c) (CodecContext?, UnsafePointer<AVCodec>?, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    let sendPacket: @convention(c) (CodecContext?, UnsafePointer<AVPacket>?) -> Int32
    let receiveFrame: @convention(c) (CodecContext?, UnsafeMutablePointer<AVFrame>?) -> Int32
    let allocPacket: @convention(c) () -> UnsafeMutablePointer<AVPacket>?
    let freePacket: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVPacket>?>?) -> Void
    let unrefPacket: @convention(c) (UnsafeMutablePointer<AVPacket>?) -> Void
    // libavutil
    let allocFrame: @convention(c) () -> UnsafeMutablePointer<AVFrame>?
    let freeFrame: @convention(c) (UnsafeMutablePointer<UnsafeMutablePointer<AVFrame>?>?) -> Void
    let allocateBuffer: @convention(c) (Int) -> UnsafeMutableRawPointer?
    let freeBuffer: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let errorText: @convention(c) (Int32, UnsafeMutablePointer<CChar>?, Int) -> Int32
    let dictionaryGet: @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<AVDictionaryEntry>?,
                                       Int32) -> UnsafeMutablePointer<AVDictionaryEntry>?
    private let setLogLevel: @convention(c) (Int32) -> Void
    private let formatVersion: @convention(c) () -> UInt32

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        allocFormatContext = try symbols.function("avformat_alloc_context")
        openInput = try symbols.function("avformat_open_input")
        closeInput = try symbols.function("avformat_close_input")
        findInputFormat = try symbols.function("av_find_input_format")
        readFrame = try symbols.function("av_read_frame")
        allocIOContext = try symbols.function("avio_alloc_context")
        freeIOContext = try symbols.function("avio_context_free")
        findDecoder = try symbols.function("avcodec_find_decoder")
        codecName = try symbols.function("avcodec_get_name")
        allocCodecContext = try symbols.function("avcodec_alloc_context3")
        freeCodecContext = try symbols.function("avcodec_free_context")
        parametersToContext = try symbols.function("avcodec_parameters_to_context")
        openCodec = try symbols.function("avcodec_open2")
        sendPacket = try symbols.function("avcodec_send_packet")
        receiveFrame = try symbols.function("avcodec_receive_frame")
        allocPacket = try symbols.function("av_packet_alloc")
        freePacket = try symbols.function("av_packet_free")
        unrefPacket = try symbols.function("av_packet_unref")
        allocFrame = try symbols.function("av_frame_alloc")
        freeFrame = try symbols.function("av_frame_free")
        allocateBuffer = try symbols.function("av_malloc")
        freeBuffer = try symbols.function("av_free")
        errorText = try symbols.function("av_strerror")
        dictionaryGet = try symbols.function("av_dict_get")
        setLogLevel = try symbols.function("av_log_set_level")
        formatVersion = try symbols.function("avformat_version")
        // FFmpeg prints its own complaints about broken input on stderr, where
        // memoapp's front ends keep their own words only: the decoder's return
        // codes say the same, and `FFmpegDecoder` words them.
        setLogLevel(AV_LOG_QUIET)
    }

    /// FFmpeg's text for an error code, e.g. "Invalid data found when processing input".
    func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard errorText(code, &buffer, buffer.count) == 0 else { return "FFmpeg error \(code)" }
        return String(cString: buffer)
    }

    /// The codec's short name, e.g. "aac", "opus".
    func name(of codec: AVCodecID) -> String {
        codecName(codec).map { String(cString: $0) } ?? "unknown"
    }
}
