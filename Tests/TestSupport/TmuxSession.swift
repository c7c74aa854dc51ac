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
    public func waitForScreen(timeout: TimeInterval = 10, _ condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(screen()) { return true }
            usleep(50_000)
        }
        return condition(screen())
    }

    public func kill() {
        _ = try? tmux(["kill-server"])
    }

    @discardableResult
    private func tmux(_ arguments: [String], capturing: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = ["-S", socket] + arguments
        let pipe = Pipe()
        process.standardOutput = capturing ? pipe : FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = capturing ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
