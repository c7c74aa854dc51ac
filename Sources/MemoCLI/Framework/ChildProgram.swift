#if canImport(Glibc)
import Glibc
#endif
import MemoCore

/// Another program memoapp starts and waits for: the user's editor, an audio
/// player, `notify-send` or a reminder's `--exec` command. One way to start
/// them, so that each gets the same clean start: arguments given as they are
/// (never through a shell, but for the editor and `--exec`, whose point is
/// one), no signal blocked, and the default action of every signal memoapp
/// changes for itself (it ignores SIGXFSZ, see main.swift; `remind`
/// blocks SIGINT and SIGTERM to wait for them; `voice play` catches them),
/// as if started from a shell.
enum ChildProgram {
    /// Signals a child gets the default action of, whatever memoapp did with them.
    private static let defaultedSignals = [SIGINT, SIGTERM, SIGHUP, SIGXFSZ, SIGPIPE]

    /// Runs `arguments[0]` (a path) with `arguments` as its argv and returns
    /// its exit status (128+N for signal N).
    /// - Parameters:
    ///   - environment: the child's environment; nil: memoapp's own.
    ///   - outputToError: the child's stdout goes to memoapp's stderr, so that
    ///     it cannot mix into memoapp's own document on stdout.
    ///   - whenInterrupted: called with the child's pid each time a signal
    ///     handler of memoapp's interrupts the wait (to pass a stop on).
    /// - Throws: `.internalFailure` naming `name` when it cannot be started.
    static func run(_ arguments: [String], environment: [String: String]? = nil, outputToError: Bool = false,
                    name: Localized? = nil, whenInterrupted: (pid_t) -> Void = { _ in }) throws -> Int32 {
        let argv = arguments.map(cString) + [nil]
        let envp = environment.map { $0.sorted { $0.key < $1.key }.map { cString($0.key + "=" + $0.value) } + [nil] }
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp ?? [] { free(pointer) }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in defaultedSignals { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if outputToError { posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO) }
        var pid = pid_t()
        let spawned = envp.map { envp in posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) }
            ?? posix_spawn(&pid, arguments[0], &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            let reason = String(cString: strerror(spawned))
            let what = name ?? Localized(en: arguments[0], ko: arguments[0])
            throw MemoError(.internalFailure, en: "cannot start \(what.en): \(reason)",
                            ko: "\(what.ko)을(를) 시작할 수 없습니다: \(reason)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR { whenInterrupted(pid) }
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
