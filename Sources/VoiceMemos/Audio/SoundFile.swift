#if canImport(Glibc)
import Glibc
#endif
import CSndFile
import MemoCore

/// One open libsndfile handle (`SNDFILE*`), closed when released.
/// See http://libsndfile.github.io/libsndfile/api.html
///
/// The `open` functions throw when libsndfile itself cannot be loaded (see
/// `LibSndFile`) and fail with libsndfile's reason when it refuses the file.
final class SoundFile {
    let handle: OpaquePointer
    let info: SF_INFO
    private let sndfile: LibSndFile
    /// Keeps the object behind a virtual I/O's `user_data` alive as long as the handle.
    private let owner: AnyObject?
    private var isClosed = false

    /// Opens a stream for reading through libsndfile's virtual I/O; nil with
    /// libsndfile's reason when it cannot read it.
    static func open(reading stream: AnyObject, io: SF_VIRTUAL_IO,
                     format: SF_INFO = SF_INFO()) throws -> Result<SoundFile, SoundFileError> {
        let sndfile = try LibSndFile.loaded()
        var virtualIO = io
        var info = format
        let userData = Unmanaged.passUnretained(stream).toOpaque()
        guard let handle = sndfile.openVirtual(&virtualIO, Int32(SFM_READ), &info, userData) else {
            return .failure(SoundFileError(reason: sndfile.lastOpenError))
        }
        return .success(SoundFile(handle: handle, info: info, owner: stream, sndfile: sndfile))
    }

    /// Writes through an open descriptor (left open on close, so that the
    /// caller can fsync it) in `format`, an `SF_FORMAT_*` major|subtype.
    /// Float input is clipped rather than wrapped when the target is integer.
    static func open(writingDescriptor descriptor: Int32, format: Int32, sampleRate: Int,
                     channels: Int) throws -> Result<SoundFile, SoundFileError> {
        let sndfile = try LibSndFile.loaded()
        var info = SF_INFO()
        info.format = format
        info.samplerate = Int32(clamping: sampleRate)
        info.channels = Int32(clamping: channels)
        guard sndfile.formatCheck(&info) != 0 else {
            return .failure(SoundFileError(reason: "libsndfile cannot write \(AudioFormat.containerName(format)) "
                                               + "\(AudioFormat.encodingName(format)) with \(channels) channels at \(sampleRate) Hz"))
        }
        guard let handle = sndfile.openFD(descriptor, Int32(SFM_WRITE), &info, Int32(SF_FALSE)) else {
            return .failure(SoundFileError(reason: sndfile.lastOpenError))
        }
        _ = sndfile.command(handle, Int32(SFC_SET_CLIPPING), nil, Int32(SF_TRUE))
        return .success(SoundFile(handle: handle, info: info, owner: nil, sndfile: sndfile))
    }

    private init(handle: OpaquePointer, info: SF_INFO, owner: AnyObject?, sndfile: LibSndFile) {
        self.handle = handle
        self.info = info
        self.owner = owner
        self.sndfile = sndfile
    }

    deinit { _ = close() }

    /// Closes the handle; for a file being written, this finalises its header
    /// (and an encoder flushes what it buffered, so this is where FLAC or
    /// LAME may fail). Returns libsndfile's status (0 when all went well).
    @discardableResult
    func close() -> Int32 {
        guard !isClosed else { return 0 }
        isClosed = true
        return sndfile.close(handle)
    }

    /// Closes the handle; throws `.storage` with libsndfile's reason when
    /// closing fails. The handle is gone once `sf_close` returns, so the
    /// reason is the text of the status it returned (`sf_error_number`), not
    /// `sf_strerror` of the handle, which would then read freed memory.
    func closeOrThrow(_ what: Localized) throws {
        let status = close()
        guard status != 0 else { return }
        let reason = sndfile.errorNumber(status).map { String(cString: $0) } ?? "libsndfile error \(status)"
        throw MemoError(.storage, en: "\(what.en): \(reason)", ko: "\(what.ko): \(reason)")
    }

    var channels: Int { Int(info.channels) }
    var sampleRate: Int { Int(info.samplerate) }
    /// The frame count the header promises; nil when it does not know
    /// (libsndfile says `SF_COUNT_MAX`, or 0 for some Ogg streams).
    var headerFrames: Int64? { info.frames > 0 && info.frames < Int64.max ? info.frames : nil }
    var format: Int32 { info.format }
    var majorFormat: Int32 { info.format & Int32(SF_FORMAT_TYPEMASK) }
    var subtypeFormat: Int32 { info.format & Int32(SF_FORMAT_SUBMASK) }
    /// True for float and double samples, which `sf_readf_short` casts
    /// instead of scaling (and SFC_SET_SCALE_FLOAT_INT_READ would fix only by
    /// reading the whole file first to find its maximum).
    var hasFloatSamples: Bool {
        Int(subtypeFormat) == SF_FORMAT_FLOAT || Int(subtypeFormat) == SF_FORMAT_DOUBLE
    }

    /// libsndfile's last error on this handle (0 when none); only while open.
    var errorCode: Int32 {
        precondition(!isClosed, "the error of a closed libsndfile handle")
        return sndfile.error(handle)
    }
    /// libsndfile's text for that error; only while open (see `closeOrThrow`).
    var errorText: String {
        precondition(!isClosed, "the error text of a closed libsndfile handle")
        return sndfile.strerror(handle).map { String(cString: $0) } ?? ""
    }

    /// Why a write took fewer frames than it was given, in libsndfile's
    /// words: `sf_strerror` of this handle when libsndfile set an error, else
    /// the error lines of its log (FLAC's encoder refuses samples it cannot
    /// take without setting one), else the counts themselves.
    func writeFailureReason(written: Int, wanted: Int) -> String {
        if errorCode != 0 { return errorText }
        let lines = log.split(separator: "\n").filter { $0.contains("Error") || $0.contains("failed") }
        if !lines.isEmpty { return lines.joined(separator: "; ") }
        return "the \(AudioFormat.containerName(format)) encoder took \(max(0, written)) of \(wanted) frames "
            + "and libsndfile gave no reason"
    }

    /// A metadata string such as `SF_STR_TITLE`, when the file has one.
    func string(_ type: Int32) -> String? {
        guard let text = sndfile.getString(handle, type) else { return nil }
        let value = String(cString: text)
        return value.isEmpty ? nil : value
    }

    func setString(_ type: Int32, _ value: String) {
        _ = sndfile.setString(handle, type, value)
    }

    /// libsndfile's parse log, where it says how a header disagreed with the file.
    var log: String {
        var buffer = [CChar](repeating: 0, count: 16384)
        _ = sndfile.command(handle, Int32(SFC_GET_LOG_INFO), &buffer, Int32(buffer.count))
        return String(cString: buffer)
    }

    func readFrames(_ buffer: UnsafeMutablePointer<Int16>, count: Int) -> Int {
        Int(sndfile.readfShort(handle, buffer, sf_count_t(count)))
    }

    func readFrames(_ buffer: UnsafeMutablePointer<Int32>, count: Int) -> Int {
        Int(sndfile.readfInt(handle, buffer, sf_count_t(count)))
    }

    func readFrames(_ buffer: UnsafeMutablePointer<Float>, count: Int) -> Int {
        Int(sndfile.readfFloat(handle, buffer, sf_count_t(count)))
    }

    func writeFrames(_ buffer: UnsafePointer<Int32>, count: Int) -> Int {
        Int(sndfile.writefInt(handle, buffer, sf_count_t(count)))
    }

    func writeFrames(_ buffer: UnsafePointer<Float>, count: Int) -> Int {
        Int(sndfile.writefFloat(handle, buffer, sf_count_t(count)))
    }

    /// Moves the read position to `frame`; false when libsndfile cannot.
    func seek(toFrame frame: Int64) -> Bool {
        sndfile.seek(handle, sf_count_t(frame), SEEK_SET) == frame
    }
}

/// A handle's frames are what `FrameCopier` copies from: raw input being
/// recorded, and (through `SndFileDecoder`) every file libsndfile reads.
extension SoundFile: FrameReader {}

/// Why a library refused a file, in its own words.
struct SoundFileError: Error {
    let reason: String
}

extension LibSndFile {
    /// Why the last `open` failed (libsndfile keeps it for a NULL handle).
    fileprivate var lastOpenError: String {
        strerror(nil).map { String(cString: $0) } ?? "unknown error"
    }
}
