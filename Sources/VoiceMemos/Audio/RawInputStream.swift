#if canImport(Glibc)
import Glibc
#endif
import CSndFile

/// Raw PCM arriving on a file descriptor (a pipe from `arecord`, a file),
/// read by libsndfile as a headerless RAW file through its virtual I/O, so
/// that libsndfile, not memoapp, turns bytes into samples.
///
/// A read waits for the whole request (libsndfile counts whole samples), in
/// slices of `poll` so that a stop request is seen within a tenth of a
/// second even when no data comes.
final class RawInputStream {
    let descriptor: Int32
    let shouldStop: () -> Bool
    fileprivate(set) var position: Int64 = 0
    /// The errno of a failed read, if any.
    private(set) var failure: Int32?
    private(set) var reachedEnd = false
    /// True once a stop request ended the capture (rather than the input's end).
    private(set) var wasStopped = false

    init(descriptor: Int32, shouldStop: @escaping () -> Bool) {
        self.descriptor = descriptor
        self.shouldStop = shouldStop
    }

    static var virtualIO: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            // Unknown length: libsndfile reads until a read comes back short.
            get_filelen: { _ in Int64.max / 4 },
            seek: { offset, whence, data in rawStream(data).seek(offset, whence: whence) },
            read: { pointer, count, data in
                guard let pointer else { return 0 }
                return rawStream(data).read(into: pointer, count: Int(count))
            },
            write: { _, _, _ in 0 },
            tell: { data in rawStream(data).position })
    }

    fileprivate func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
        // A pipe cannot seek; libsndfile only asks for where it already is.
        // Any offset it passes is answered, none overflows.
        switch whence {
        case SEEK_SET: return offset == position ? position : -1
        case SEEK_CUR: return offset == 0 ? position : -1
        default: return -1
        }
    }

    fileprivate func read(into pointer: UnsafeMutableRawPointer, count: Int) -> sf_count_t {
        var done = 0
        while done < count && !reachedEnd && failure == nil {
            if shouldStop() {
                wasStopped = true
                break
            }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&request, 1, 100)
            if ready < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            if ready == 0 { continue }
            let result = Glibc.read(descriptor, pointer + done, count - done)
            if result < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                failure = errno
            } else if result == 0 {
                reachedEnd = true
            } else {
                done += result
            }
        }
        position += Int64(done)
        return sf_count_t(done)
    }
}

private func rawStream(_ data: UnsafeMutableRawPointer?) -> RawInputStream {
    Unmanaged<RawInputStream>.fromOpaque(data!).takeUnretainedValue()
}
