import CSndFile
import MemoCore

/// A source opened for decoding through libsndfile, with the frame count it
/// reports made a promise the decode can be held to.
///
/// Most containers are read through libsndfile's virtual I/O over the
/// `TeeStream`. MPEG audio is not: opened as a seekable file, libsndfile
/// takes its length from mpg123, which, when the stream has no Xing/Info
/// tag, estimates it from the file size and the first frame's bitrate
/// (`mpg123_length`), and then `sf_readf_*` stops at that estimate. A VBR
/// file whose first frames are small decodes only part of its audio; one
/// whose first frames are large claims more than it holds. Read as a stream
/// that cannot be seeked (`sf_open_fd` on a socket, fed by `StreamFeeder`),
/// libsndfile takes the length from the Xing/Info tag, which counts the
/// frames exactly (the LAME tag's encoder delay and padding removed), or,
/// without one, reports none and decodes to the end. See
/// https://github.com/libsndfile/libsndfile/blob/master/src/mpeg_decode.c
/// (`mpeg_dec_fill_sfinfo`) and sf_readf_short in src/sndfile.c.
///
/// So `promisedFrames` is a count that a shorter decode contradicts, in
/// every container: truncation, not an estimate.
final class SourceDecoder {
    /// The open handle, positioned at the first frame.
    let file: SoundFile
    let stream: TeeStream
    private let strings: [Int32: String]
    private let feeder: StreamFeeder?

    /// Opens `stream`; `.failure` with libsndfile's reason when it cannot
    /// read it. Throws when libsndfile cannot be loaded or the system has no
    /// socket for an MPEG stream.
    static func open(_ stream: TeeStream) throws -> Result<SourceDecoder, SoundFileError> {
        let first: SoundFile
        switch try SoundFile.open(reading: stream, io: TeeStream.virtualIO) {
        case let .success(file): first = file
        case let .failure(error): return .failure(error)
        }
        // Streamed, libsndfile hands mpg123 the bytes after an ID3v2 tag and
        // never the tag: the strings come from this first, seekable opening.
        let strings = SourceDecoder.strings(of: first)
        guard Int(first.majorFormat) == SF_FORMAT_MPEG else {
            return .success(SourceDecoder(file: first, stream: stream, strings: strings, feeder: nil))
        }
        first.close()
        let feeder: StreamFeeder
        do {
            feeder = try StreamFeeder(stream: stream, chunkSize: stream.chunkSize)
            try feeder.start()
        } catch {
            throw MemoError(.internalFailure, en: "cannot set up the MPEG decoder's stream: \(error.reason)",
                            ko: "MPEG 디코더용 스트림을 만들 수 없습니다: \(error.reason)")
        }
        switch try SoundFile.open(readingDescriptor: feeder.readDescriptor) {
        case let .success(file):
            return .success(SourceDecoder(file: file, stream: stream, strings: strings, feeder: feeder))
        case let .failure(error):
            feeder.stop()
            return .failure(error)
        }
    }

    private init(file: SoundFile, stream: TeeStream, strings: [Int32: String], feeder: StreamFeeder?) {
        self.file = file
        self.stream = stream
        self.strings = strings
        self.feeder = feeder
    }

    deinit {
        file.close()
        feeder?.stop()
    }

    /// The frame count the source states (a WAV or AIFF data chunk, FLAC's
    /// STREAMINFO, the last Ogg page, an MPEG Xing/Info tag); nil when it
    /// states none.
    var promisedFrames: Int64? { file.headerFrames }

    /// The metadata string of `type` (`SF_STR_TITLE`, …), when the source has one.
    func string(_ type: Int32) -> String? { strings[type] }

    /// Every metadata string the source has, by type.
    var allStrings: [Int32: String] { strings }

    /// Bytes of the source read so far (for progress).
    var bytesRead: Int64 { feeder?.bytesSent ?? stream.highWater }

    /// Ends the decode: closes the handle, stops the feeding thread, then
    /// reads whatever the decoder left unread into the checksum and the copy.
    /// - Throws: the source's or the copy's failure, if there was one.
    func finish() throws {
        file.close()
        feeder?.stop()
        try stream.finish()
    }

    // MARK: - Private

    /// The metadata types libsndfile reads (sndfile.h's SF_STR_*).
    static let stringTypes = [SF_STR_TITLE, SF_STR_COPYRIGHT, SF_STR_SOFTWARE, SF_STR_ARTIST, SF_STR_COMMENT,
                              SF_STR_DATE, SF_STR_ALBUM, SF_STR_LICENSE, SF_STR_TRACKNUMBER, SF_STR_GENRE]

    private static func strings(of file: SoundFile) -> [Int32: String] {
        var strings: [Int32: String] = [:]
        for type in stringTypes {
            if let value = file.string(Int32(type)) { strings[Int32(type)] = value }
        }
        return strings
    }
}
