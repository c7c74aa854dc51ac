#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg
import CSndFile
import MemoCore

extension FFmpegDecoder {
    /// An MP4 or CAF opened by libavformat over a `TeeStream`: the container
    /// side of `FFmpegDecoder`, handing it the packets of one audio track.
    final class Demuxer {
        let context: LibAV.FormatContext
        private let io: UnsafeMutablePointer<AVIOContext>
        private let av: LibAV
        private var isClosed = false

        /// FFmpeg's reads go through a buffer of this size.
        static let bufferSize: Int32 = 64 << 10

        /// Opens `stream` (kept alive by the decoder that owns this) with the
        /// demuxer of `container`, never by probing.
        static func open(_ stream: TeeStream, container: AudioDecoders.Container,
                         av: LibAV) -> Result<Demuxer, SoundFileError> {
            guard let inputFormat = av.findInputFormat(container.demuxer) else {
                return .failure(SoundFileError(reason: "this FFmpeg has no \(container.demuxer) demuxer"))
            }
            guard let buffer = av.allocateBuffer(Int(bufferSize)) else {
                return .failure(SoundFileError(reason: "out of memory"))
            }
            let opaque = Unmanaged.passUnretained(stream).toOpaque()
            guard let io = av.allocIOContext(buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, opaque,
                                             avioRead, nil, avioSeek) else {
                av.freeBuffer(buffer)
                return .failure(SoundFileError(reason: "out of memory"))
            }
            var context = av.allocFormatContext()
            context?.pointee.pb = io
            // On failure avformat_open_input frees the context, not the I/O, which is ours.
            let status = context == nil ? 0 : av.openInput(&context, "", inputFormat, nil)
            guard status >= 0, let context else {
                var unused: UnsafeMutablePointer<AVIOContext>? = io
                Demuxer.release(&unused, av: av)
                return .failure(SoundFileError(reason: status < 0 ? av.describe(status) : "out of memory"))
            }
            return .success(Demuxer(context: context, io: io, av: av))
        }

        private init(context: LibAV.FormatContext, io: UnsafeMutablePointer<AVIOContext>, av: LibAV) {
            self.context = context
            self.io = io
            self.av = av
        }

        deinit { close() }

        func close() {
            guard !isClosed else { return }
            isClosed = true
            var context: LibAV.FormatContext? = context
            av.closeInput(&context)
            var io: UnsafeMutablePointer<AVIOContext>? = io
            Demuxer.release(&io, av: av)
        }

        /// The first audio track: its index and codec parameters.
        func firstAudioStream() -> (Int32, UnsafeMutablePointer<AVCodecParameters>)? {
            for index in 0..<Int(context.pointee.nb_streams) {
                guard let stream = context.pointee.streams[index], let parameters = stream.pointee.codecpar,
                      parameters.pointee.codec_type == AVMEDIA_TYPE_AUDIO else { continue }
                return (Int32(index), parameters)
            }
            return nil
        }

        /// Tells libavformat to skip the packets of every other track (a
        /// video's frames, a second audio track).
        func discardAll(but kept: Int32) {
            for index in 0..<Int(context.pointee.nb_streams) where index != Int(kept) {
                context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
            }
        }

        func timeBase(of index: Int32) -> AVRational {
            context.pointee.streams[Int(index)]!.pointee.time_base
        }

        /// The frames track `index` states it holds at `sampleRate`; nil when
        /// it states none or a number memoapp does not hold.
        func statedFrames(of index: Int32, sampleRate: Int) -> Int64? {
            let stream = context.pointee.streams[Int(index)]!.pointee
            let base = stream.time_base
            // AV_NOPTS_VALUE, a macro Swift cannot import, is Int64.min.
            guard stream.duration > 0, base.num > 0, base.den > 0, sampleRate > 0 else { return nil }
            // duration · num / den seconds, at sampleRate frames a second, rounded.
            let (scaled, overflow) = stream.duration.multipliedReportingOverflow(by: Int64(base.num) * Int64(sampleRate))
            guard !overflow else { return nil }
            let frames = (scaled + Int64(base.den) / 2) / Int64(base.den)
            return AudioLimits.frames.contains(frames) ? frames : nil
        }

        /// Reads the next packet of any kept track into `packet`: 0, or an
        /// FFmpeg error (`AVERROR_EOF` at the end).
        func read(into packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
            av.readFrame(context, packet)
        }

        /// The container's tags as libsndfile's string types, so that an
        /// export or a trim writes them on, as it does other formats' tags.
        func strings() -> [Int32: String] {
            let keys: [(String, Int)] = [
                ("title", SF_STR_TITLE), ("copyright", SF_STR_COPYRIGHT), ("encoder", SF_STR_SOFTWARE),
                ("artist", SF_STR_ARTIST), ("comment", SF_STR_COMMENT), ("date", SF_STR_DATE),
                ("album", SF_STR_ALBUM), ("track", SF_STR_TRACKNUMBER), ("genre", SF_STR_GENRE),
            ]
            var strings: [Int32: String] = [:]
            for (key, type) in keys {
                guard let entry = av.dictionaryGet(context.pointee.metadata, key, nil, 0),
                      let value = entry.pointee.value else { continue }
                let text = String(cString: value)
                if !text.isEmpty { strings[Int32(type)] = text }
            }
            return strings
        }

        private static func release(_ io: inout UnsafeMutablePointer<AVIOContext>?, av: LibAV) {
            // The buffer may have been replaced by libavformat; free the current one.
            av.freeBuffer(io?.pointee.buffer)
            io?.pointee.buffer = nil
            av.freeIOContext(&io)
        }
    }
}

/// The stream behind the I/O context's `opaque` (the decoder keeps it alive).
private func teeStream(_ opaque: UnsafeMutableRawPointer?) -> TeeStream {
    Unmanaged<TeeStream>.fromOpaque(opaque!).takeUnretainedValue()
}

/// FFmpeg's read callback: bytes, or `AVERROR_EOF` at the end (and after a
/// failure of the source, which the importer reports instead).
private let avioRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, size in
    guard let buffer, size > 0 else { return LibAV.endOfFile }
    let count = teeStream(opaque).read(into: buffer, count: Int64(size))
    return count > 0 ? Int32(count) : LibAV.endOfFile
}

/// FFmpeg's seek callback: `lseek`'s, plus `AVSEEK_SIZE`, which asks the length.
private let avioSeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    let stream = teeStream(opaque)
    if whence & AVSEEK_SIZE != 0 { return stream.source.length }
    return stream.seek(offset, whence: whence & ~AVSEEK_FORCE)
}
