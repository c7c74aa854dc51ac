#if canImport(Glibc)
import Glibc
#endif
import CCurl
import MemoCore

/// Requests whose body or answer is a file's worth of bytes (sync's audio):
/// streamed, never held whole.
extension HTTPClient {
    /// Sends the bytes of the file at `path` from `offset` to `offset +
    /// length` as the body of a PUT, read as libcurl takes them; the answer
    /// is bounded like `send`'s.
    public func upload(_ url: String, headers: [String] = [], path: String, offset: Int64, length: Int64) throws -> Answer {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystem.storageError(.opening, path) }
        defer { close(descriptor) }
        let source = FileSource(descriptor: descriptor, offset: offset, end: offset + length)
        let sink = AnswerSink(limit: maximumAnswer)
        let box = Unmanaged.passRetained(source)
        defer { box.release() }
        return try perform(url, headers: headers + ["Expect:"], writing: answerWritten, into: sink) { curl, handle, set in
            set(CURLOPT_UPLOAD, 1)
            // A slow link may take long for an hour of audio; a stalled one may not.
            set(CURLOPT_LOW_SPEED_LIMIT, 1)
            set(CURLOPT_LOW_SPEED_TIME, 60)
            _ = memoapp_curl_setopt_offset(curl.setopt, handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(length))
            _ = memoapp_curl_setopt_read_function(curl.setopt, handle, fileRead)
            _ = memoapp_curl_setopt_pointer(curl.setopt, handle, CURLOPT_READDATA, box.toOpaque())
            return curl.easyPerform(handle)
        } finished: { code, status, sent, received in
            if let failure = source.failure { throw failure }
            guard code == CURLE_OK else { throw try Self.unreachable(url, code) }
            return Answer(status: status, body: sink.bytes, bytesSent: sent, bytesReceived: received)
        }
    }

    /// A GET whose answer, when it is 200 or 206, is handed to `write`
    /// piece by piece as it arrives; any other answer is collected (bounded)
    /// and returned as the answer's body, `write` never called.
    public func download(_ url: String, headers: [String] = [],
                         write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws -> Answer {
        let sink = DownloadSink(limit: 1 << 20, write: write)
        return try perform(url, headers: headers, writing: downloadWritten, into: sink) { curl, handle, set in
            set(CURLOPT_LOW_SPEED_LIMIT, 1)
            set(CURLOPT_LOW_SPEED_TIME, 60)
            sink.status = { [curl] in
                var status = 0
                _ = memoapp_curl_getinfo_long(curl.getinfo, handle, CURLINFO_RESPONSE_CODE, &status)
                return status
            }
            return curl.easyPerform(handle)
        } finished: { code, status, sent, received in
            if let failure = sink.failure { throw failure }
            guard code == CURLE_OK else { throw try Self.unreachable(url, code) }
            return Answer(status: status, body: sink.refusal, bytesSent: sent, bytesReceived: received)
        }
    }
}

/// Where an upload's bytes come from: a file, from an offset to an end.
private final class FileSource {
    let descriptor: Int32
    var position: Int64
    let end: Int64
    var failure: MemoError?

    init(descriptor: Int32, offset: Int64, end: Int64) {
        self.descriptor = descriptor
        position = offset
        self.end = end
    }
}

/// libcurl's read callback for `upload`: the next bytes of the file;
/// CURL_READFUNC_ABORT when it cannot be read (the failure is kept).
private let fileRead: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    buffer, size, count, context in
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    let source = Unmanaged<FileSource>.fromOpaque(context).takeUnretainedValue()
    let wanted = min(size * count, Int(source.end - source.position))
    guard wanted > 0 else { return 0 }
    let got = pread(source.descriptor, buffer, wanted, off_t(source.position))
    guard got > 0 else {
        source.failure = FileSystem.storageError(.reading, "/proc/self/fd/\(source.descriptor)")
        return Int(CURL_READFUNC_ABORT)
    }
    source.position += Int64(got)
    return got
}

/// A download's receiver: the status is asked once the first bytes come.
private final class DownloadSink {
    let limit: Int
    let write: (UnsafeRawBufferPointer) throws -> Void
    var status: () -> Int = { 0 }
    var isBody: Bool?
    var refusal: [UInt8] = []
    var failure: (any Error)?

    init(limit: Int, write: @escaping (UnsafeRawBufferPointer) throws -> Void) {
        self.limit = limit
        self.write = write
    }
}

private let downloadWritten: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
    data, size, count, context in
    guard let data, let context else { return 0 }
    let sink = Unmanaged<DownloadSink>.fromOpaque(context).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    if sink.isBody == nil { sink.isBody = [200, 206].contains(sink.status()) }
    guard sink.isBody == true else {
        guard sink.refusal.count + length <= sink.limit else { return 0 }
        sink.refusal.append(contentsOf: bytes)
        return length
    }
    do {
        try sink.write(bytes)
    } catch {
        sink.failure = error
        return 0
    }
    return length
}
