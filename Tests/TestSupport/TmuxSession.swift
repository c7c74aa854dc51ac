import Foundation

/// A detached tmux session: a real pseudo-terminal to drive interactive
/// commands with key presses and read back the screen.
public final class TmuxSession {
    let socket: String
    let name = "memoapp-test"

    public static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    }

    public init(folder: TemporaryDirectory) {
        socket = folder.appending("tmux-\(UUID().uuidString.prefix(8)).sock")
    }

    /// Starts `command` under `sh -c` in an 80×24 window.
    public func start(command: String, environment: [String: String]) throws {
        let exports = environment.map { "export \($0.key)='\($0.value)';" }.joined(separator: " ")
        // The server started here would inherit a capture pipe and hold it open
        // forever, so this call's output goes nowhere.
        try tmux(["new-session", "-d", "-s", name, "-x", "80", "-y", "24", "sh", "-c", exports + " " + command],
                 capturing: false)
    }

    /// Starts an interactive bash (job control: Ctrl-Z and `fg`) in a
    /// `columns`×24 window, with `environment` exported, and types `command`
    /// at its prompt.
    public func startShell(typing command: String, environment: [String: String], columns: Int = 80) throws {
        let exports = environment.map { "export \($0.key)='\($0.value)';" }.joined(separator: " ")
        try tmux(["new-session", "-d", "-s", name, "-x", String(columns), "-y", "24", "sh", "-c",
                  exports + " PS1='$ ' exec bash --norc --noprofile -i"], capturing: false)
        type(command)
    }

    /// Types `text` as it is, then Enter.
    public func type(_ text: String) {
        _ = try? tmux(["send-keys", "-t", name, "-l", text])
        _ = try? tmux(["send-keys", "-t", name, "Enter"])
    }

    /// Makes the window `columns` wide (the program in it gets SIGWINCH).
    public func resize(columns: Int, rows: Int = 24) {
        _ = try? tmux(["resize-window", "-t", name, "-x", String(columns), "-y", String(rows)])
    }

    /// Sends tmux key names (`Right`, `Enter`, `C-c`, or plain characters).
    public func send(keys: [String]) {
        for key in keys {
            _ = try? tmux(["send-keys", "-t", name, key])
        }
    }

    /// The visible screen as text.
    public func screen() -> String {
        (try? tmux(["capture-pane", "-p", "-t", name])) ?? ""
    }

    /// Polls the screen until `condition` holds or `timeout` passes.
    public func waitForScreen(timeout: TimeInterval = 20, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(screen()) { return true }
            usleep(50_000)
        }
        return condition(screen())
    }

    /// Whether the terminal shows its cursor now (a program may hide it).
    public var isCursorVisible: Bool {
        (try? tmux(["display-message", "-p", "-t", name, "#{cursor_flag}"]))?.hasPrefix("1") ?? false
    }

    public func kill() {
        _ = try? tmux(["kill-server"])
    }

    /// Runs tmux with posix_spawn and waitpid. Foundation's Process missed the
    /// exit of `new-session` (whose server daemonizes) and waited forever.
    @discardableResult
    private func tmux(_ arguments: [String], capturing: Bool = true) throws -> String {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capturing {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        let argv = (["/usr/bin/tmux", "-S", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, "/usr/bin/tmux", &actions, nil, argv, environ)
        close(pipeEnds[1])
        guard status == 0 else {
            close(pipeEnds[0])
            throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO)
        }
        var output = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(pipeEnds[0], &buffer, buffer.count)
            if count > 0 { output += buffer[0..<count] } else if count == 0 || errno != EINTR { break }
        }
        close(pipeEnds[0])
        var exitStatus: Int32 = 0
        while waitpid(child, &exitStatus, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}
