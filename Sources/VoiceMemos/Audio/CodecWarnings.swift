#if canImport(Glibc)
import Glibc
#endif

/// The codecs inside libsndfile (mpg123 among them) print their own warnings
/// about broken input on the process's stderr, where memoapp's front ends
/// keep their own words only.
public enum CodecWarnings {
    /// Runs `body` with file descriptor 2 pointed at /dev/null; `body` gets a
    /// descriptor of the real stderr for anything it must still say. The
    /// redirection is process-wide: a multi-threaded front end silences the
    /// codecs once for its whole life instead.
    public static func silenced<T>(_ body: (Int32) throws -> T) rethrows -> T {
        fflush(stderr)
        let original = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard original >= 0, null >= 0 else {
            if original >= 0 { close(original) }
            if null >= 0 { close(null) }
            return try body(STDERR_FILENO)
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            fflush(stderr)
            dup2(original, STDERR_FILENO)
            close(original)
        }
        return try body(original)
    }
}
