#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// A lock on the library folder itself (flock on its descriptor) for the one
/// writer that puts files into `voice/` before their rows exist: a restore
/// installs its audio, then its database. While it holds the lock, files
/// without a row are about to be owned, not left over, and no sweep may take
/// them (see `VoiceStore.removeLeftovers`). The lock goes with its process, so
/// a killed restore leaves nothing locked. It is advisory: only memoapp takes it.
public final class VoiceLibraryLock {
    private var descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    /// Waits for, then holds, the folder's exclusive lock (another restore may
    /// hold it; a sweep holds it only for an instant). Creates the folder.
    public static func exclusive(in directory: String) throws -> VoiceLibraryLock {
        try FileSystem.makeDirectory(directory)
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystem.storageError(.reading, directory) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let failure = FileSystem.storageError(.reading, directory)
                close(descriptor)
                throw failure
            }
        }
        return VoiceLibraryLock(descriptor: descriptor)
    }

    /// The shared lock at once, or nil while a restore is installing files:
    /// whoever sweeps leftovers takes it, and sweeps nothing without it.
    public static func sharedIfFree(in directory: String) -> VoiceLibraryLock? {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_SH | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return VoiceLibraryLock(descriptor: descriptor)
    }

    public func release() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }
}
