import CSndFile
import MemoCore

/// A source opened for decoding through libsndfile's virtual I/O over the
/// `TeeStream`, with the frame count it reports made a promise the decode can
/// be held to: the `AudioDecoder` of every format libsndfile reads.
///
/// MPEG audio needs care. libsndfile takes its length from mpg123, which,
/// when the stream has no Xing/Info tag, estimates it from the file size and
/// the first frame's bitrate (`mpg123_length`), and `sf_readf_*` then stops
/// at that estimate: a VBR file whose first frames are large decodes only
/// part of its audio; one whose first frames are small claims more than it
/// holds. So MPEG is opened a second time with the end of the source hidden
/// from the decoder (the stream refuses `SEEK_END`): mpg123 then has no size
/// to estimate from and takes the length from the Xing/Info tag, which counts
/// the frames exactly (the LAME tag's encoder delay and padding removed), or
/// reports none, and libsndfile decodes to the end. See
/// https://github.com/libsndfile/libsndfile/blob/1.2.0/src/mpeg_decode.c
/// (`mpeg_dec_fill_sfinfo`: a length below 0 becomes `SF_COUNT_MAX`) and
/// sf_readf_short in src/sndfile.c (reads stop at `frames`).
///
/// Reading MPEG from a pipe would do the same, but libsndfile (1.2.0 and
/// later) then reads one byte before its own header buffer (`mpeg_open`
/// sets `dataoffset` only after the decoder used it), which the address
/// sanitizer reports for every MP3. libsndfile 1.2.1 and later answer an
/// unknown length with `mpg123_scan`, which needs the end: there the second
/// opening fails and the first is used as it is (the estimate again).
///
/// So `promisedFrames` is a count that a shorter decode contradicts, in
/// every container: truncation, not an estimate.
final class SndFileDecoder: AudioDecoder {
    /// The open handle, positioned at the first frame.
    let file: SoundFile
    let stream: TeeStream
    private let strings: [Int32: String]

    /// Opens `stream`; `.failure` with libsndfile's reason when it cannot
    /// read it. Throws when libsndfile cannot be loaded.
    static func open(_ stream: TeeStream) throws -> Result<SndFileDecoder, SoundFileError> {
        let first: SoundFile
        switch try SoundFile.open(reading: stream, io: TeeStream.virtualIO) {
        case let .success(file): first = file
        case let .failure(error): return .failure(error)
        }
        // With its end hidden, mpg123 cannot look for an ID3v1 tag there: the
        // strings come from this first opening.
        let strings = SndFileDecoder.strings(of: first)
        guard Int(first.majorFormat) == SF_FORMAT_MPEG else {
            return .success(SndFileDecoder(file: first, stream: stream, strings: strings))
        }
        first.close()
        stream.hidesEnd = true
        if case let .success(file) = try SoundFile.open(reading: stream, io: TeeStream.virtualIO) {
            return .success(SndFileDecoder(file: file, stream: stream, strings: strings))
        }
        stream.hidesEnd = false
        return try SoundFile.open(reading: stream, io: TeeStream.virtualIO).map {
            SndFileDecoder(file: $0, stream: stream, strings: strings)
        }
    }

    private init(file: SoundFile, stream: TeeStream, strings: [Int32: String]) {
        self.file = file
        self.stream = stream
        self.strings = strings
    }

    deinit {
        file.close()
    }

    /// The frame count the source states (a WAV or AIFF data chunk, FLAC's
    /// STREAMINFO, the last Ogg page, an MPEG Xing/Info tag); nil when it
    /// states none.
    var promisedFrames: Int64? { file.headerFrames }

    var format: Int32 { file.format }
    var sampleRate: Int { file.sampleRate }
    var channels: Int { file.channels }
    var hasFloatSamples: Bool { file.hasFloatSamples }

    /// Every metadata string the source has, by type.
    var allStrings: [Int32: String] { strings }

    /// `sf_strerror` of the handle when libsndfile set an error.
    var decodeFailure: String? { file.errorCode != 0 ? file.errorText : nil }

    /// What libsndfile's parse log says (see `TruncationEvidence`).
    var isTruncated: Bool { TruncationEvidence.isTruncated(log: file.log) }

    func readFrames(_ buffer: UnsafeMutablePointer<Int16>, count: Int) -> Int { file.readFrames(buffer, count: count) }
    func readFrames(_ buffer: UnsafeMutablePointer<Int32>, count: Int) -> Int { file.readFrames(buffer, count: count) }
    func readFrames(_ buffer: UnsafeMutablePointer<Float>, count: Int) -> Int { file.readFrames(buffer, count: count) }
    func seek(toFrame frame: Int64) -> Bool { file.seek(toFrame: frame) }

    /// Ends the decode: closes the handle, then reads whatever the decoder
    /// left unread into the checksum and the copy.
    /// - Throws: the source's or the copy's failure, if there was one.
    func finish() throws {
        file.close()
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
