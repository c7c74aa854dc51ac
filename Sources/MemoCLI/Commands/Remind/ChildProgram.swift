#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Runs a program the reminder watcher hands an event to (`notify-send`,
/// the user's `--exec` command) and waits for it: its arguments given as
/// they are, never through a shell (but for `--exec`, whose point is one).
enum ChildProgram {
    /// Runs `path` with `arguments` (argv[0] included) and `extraEnvironment`
    /// added to `environment`; returns its exit status (128+N for signal N).
    /// - Parameter outputToError: the child's stdout goes to memoapp's stderr,
    ///   so that it cannot mix into a stream of JSON lines.
    /// - Throws: `.internalFailure` when it cannot be started.
    static func run(_ path: String, _ arguments: [String], environment: [String: String],
                    extraEnvironment: [(String, String)], outputToError: Bool) throws -> Int32 {
        var merged = environment
        for (name, value) in extraEnvironment { merged[name] = value }
        let argv = arguments.map(cString) + [nil]
        let envp = merged.sorted { $0.key < $1.key }.map { cString($0.key + "=" + $0.value) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        // The watcher blocks SIGINT and SIGTERM (it waits for them in
        // sigwait) and ignores SIGXFSZ (main.swift); the child starts with
        // none blocked and the defaults back, as if started from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGXFSZ, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if outputToError { posix_spawn_file_actions_adddup2(&actions, 2, 1) }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard spawned == 0 else {
            let reason = String(cString: strerror(spawned))
            throw MemoError(.internalFailure, en: "cannot start \(path): \(reason)", ko: "\(path)을(를) 시작할 수 없습니다: \(reason)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS by hand: Swift does not import the macros.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// The first executable regular file named `name` in `$PATH`, as a shell
    /// would find it; nil when there is none.
    static func find(_ name: String, in environment: [String: String]) -> String? {
        for folder in (environment["PATH"] ?? "").split(separator: ":") where folder.hasPrefix("/") {
            let path = folder + "/" + name
            var status = stat()
            if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(path, X_OK) == 0 { return path }
        }
        return nil
    }

    /// A C string of `text`; a NUL (which a title may hold) cannot pass
    /// through argv or the environment, so it becomes U+FFFD.
    private static func cString(_ text: String) -> UnsafeMutablePointer<CChar>? {
        strdup(text.replacingNUL)
    }
}

private extension String {
    var replacingNUL: String {
        contains("\0") ? String(String.UnicodeScalarView(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : $0 })) : self
    }
}
