import MemoCore
#if canImport(Glibc)
import Glibc
#endif

/// The folder a backup goes into: new (then created, mode 0700) or empty,
/// outside the data home, and locked (`flock`) for as long as the backup
/// writes, so that two backups never mix their files in one folder.
///
/// A folder that holds anything is refused with `.invalidState` (exit 5),
/// as `voice export` refuses an existing file: the command line is right,
/// the folder is not in a state that allows it.
public final class BackupDestination {
    /// The folder, absolute, links resolved.
    public let path: String
    private var descriptor: Int32
    private let wasCreated: Bool

    private init(path: String, descriptor: Int32, wasCreated: Bool) {
        self.path = path
        self.descriptor = descriptor
        self.wasCreated = wasCreated
    }

    deinit { release() }

    /// Creates or checks the folder named `given` and locks it.
    public static func open(_ given: String, home: DataHome) throws -> BackupDestination {
        var info = stat()
        let exists = stat(given, &info) == 0
        if exists && (info.st_mode & S_IFMT) != S_IFDIR {
            throw MemoError(.invalidState, en: "\(given) exists and is not a folder; name a new or empty folder",
                            ko: "\(given)이(가) 이미 있고 폴더가 아닙니다. 새 폴더나 빈 폴더를 지정하세요")
        }
        if !exists { try DataHome.makeDirectory(given, mode: 0o700) }
        let descriptor = Glibc.open(given, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0, let path = BackupFiles.realPath(given) else {
            let failure = FileSystem.storageError(.reading, given)
            if descriptor >= 0 { close(descriptor) }
            throw failure
        }
        let folder = BackupDestination(path: path, descriptor: descriptor, wasCreated: !exists)
        do {
            try folder.check(given: given, home: home)
        } catch {
            folder.removeIfCreated()
            throw error
        }
        return folder
    }

    /// Closes the folder, which releases the lock.
    public func release() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
    }

    /// After a failure: removes the folder when this backup made it (it is
    /// empty again by then; a folder that is not stays).
    public func removeIfCreated() {
        if wasCreated { rmdir(path) }
    }

    // MARK: - Private

    private func check(given: String, home: DataHome) throws {
        if let homePath = BackupFiles.realPath(home.path), path == homePath || path.hasPrefix(homePath + "/") {
            throw MemoError(.invalidState,
                            en: "\(given) is inside the data home \(home.path); a backup there would be lost with it. Name a folder elsewhere",
                            ko: "\(given)은(는) 데이터 폴더 \(home.path) 안에 있습니다. 거기 둔 백업은 데이터와 함께 잃게 됩니다. 다른 곳의 폴더를 지정하세요")
        }
        guard BackupFiles.tryLock(descriptor) else {
            throw MemoError(.invalidState, en: "another memoapp backup is writing into \(given)",
                            ko: "다른 memoapp 백업이 \(given)에 쓰고 있습니다")
        }
        let names = try FileSystem.names(in: path)
        guard names.isEmpty else {
            let hint: Localized
            if names.contains(BackupManifest.fileName) {
                hint = Localized(en: " (it holds a backup already)", ko: " (이미 백업이 들어 있습니다)")
            } else if names.contains(where: { $0.hasPrefix(".memoapp-backup-") }) {
                hint = Localized(en: " (it holds an interrupted backup: remove the folder and run the backup again)",
                                 ko: " (중단된 백업이 들어 있습니다: 폴더를 지우고 다시 백업하세요)")
            } else {
                hint = Localized(en: "", ko: "")
            }
            throw MemoError(.invalidState,
                            en: "\(given) is not empty\(hint.en); a backup goes into a new or empty folder of its own",
                            ko: "\(given)이(가) 비어 있지 않습니다\(hint.ko). 백업은 새 폴더나 빈 폴더에 따로 만듭니다")
        }
    }
}
