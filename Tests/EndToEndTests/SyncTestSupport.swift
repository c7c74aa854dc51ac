import Foundation
import TestSupport
import XCTest

/// A hub (`memoapp serve` on loopback, port 0) and devices, each its own
/// data home with its own token, for the sync tests: the real binary, real
/// HTTP, temporary homes.
final class SyncHomes {
    let folder = TemporaryDirectory()
    let hub: Memoapp
    private(set) var serving: ServingMemoapp
    private(set) var devices: [Memoapp] = []
    private(set) var tokens: [String] = []

    init(devices count: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        hub = Memoapp(home: folder.appending("hub"))
        hub.onboard(file: file, line: line)
        serving = try ServingMemoapp(hub, arguments: ["serve", "--listen", "127.0.0.1:0"])
        for _ in 0..<count { try addDevice(file: file, line: line) }
    }

    var url: String { serving.url }

    /// A new device: its own home, onboarded (a first run is per device), and a token.
    @discardableResult
    func addDevice(file: StaticString = #filePath, line: UInt = #line) throws -> Memoapp {
        let device = Memoapp(home: folder.appending("device\(devices.count)"))
        device.onboard(file: file, line: line)
        let token = hub.run("--json", "token", "create", "device\(devices.count)").object(file: file, line: line)["token"]
        tokens.append(token as? String ?? "")
        devices.append(device)
        return device
    }

    /// Syncs device `index` (saving the server and its token the first time).
    @discardableResult
    func sync(_ index: Int, _ extra: [String] = [], environment: [String: String] = [:],
              file: StaticString = #filePath, line: UInt = #line) -> RunResult {
        let result = devices[index].run(["--json", "sync", "--server", url, "--token", tokens[index]] + extra,
                                        environment: environment)
        XCTAssertEqual(result.status, 0, "device \(index) sync: \(result.stderr)", file: file, line: line)
        return result
    }

    /// Syncs each device, then each again, so every change has reached all.
    func syncAll(file: StaticString = #filePath, line: UInt = #line) {
        for _ in 0..<2 { for index in devices.indices { sync(index, file: file, line: line) } }
    }

    /// Stops the hub (unless a test stopped it already) and starts it
    /// again on the same home (a new port).
    func restartHub() throws {
        if serving.process.isRunning { _ = serving.stop(signal: SIGTERM) }
        serving = try ServingMemoapp(hub, arguments: ["serve", "--listen", "127.0.0.1:0"])
    }

    /// A home's to-dos, memos, timers and voice memos by uid, as its export
    /// has them, without what is each home's own: short ids (a timer's to-do
    /// is its `todo_uid`), audio files' names and the moments of writes.
    static func state(of memoapp: Memoapp, file: StaticString = #filePath, line: UInt = #line) -> [String: [String: String]] {
        let result = memoapp.run("export")
        XCTAssertEqual(result.status, 0, result.stderr, file: file, line: line)
        let document = result.object(file: file, line: line)
        var state: [String: [String: String]] = [:]
        for kind in ["todos", "memos", "timers", "voice_memos"] {
            for item in document[kind] as? [[String: Any]] ?? [] {
                var fields: [String: String] = ["kind": kind]
                for (key, value) in item where !["id", "updated_at", "uid", "todo_id", "file_name"].contains(key) {
                    fields[key] = SyncHomes.canonical(value)
                }
                state[item["uid"] as? String ?? ""] = fields
            }
        }
        return state
    }

    /// A JSON value as text with sorted keys, so equal values compare equal.
    static func canonical(_ value: Any) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed]) else {
            return "\(value)"
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every device's state equals the hub's.
    func assertConverged(_ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
        let hubState = SyncHomes.state(of: hub, file: file, line: line)
        for (index, device) in devices.enumerated() {
            let deviceState = SyncHomes.state(of: device, file: file, line: line)
            XCTAssertEqual(deviceState, hubState, "device \(index) differs from the hub \(message)", file: file, line: line)
        }
    }

    /// The JSON of a command on `memoapp` (which must succeed).
    static func json(_ memoapp: Memoapp, _ arguments: String..., file: StaticString = #filePath,
                     line: UInt = #line) -> Any? {
        let result = memoapp.run(["--json"] + arguments)
        XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)", file: file, line: line)
        return result.json(file: file, line: line)
    }

    /// `todo list --all` as objects.
    static func todos(_ memoapp: Memoapp) -> [[String: Any]] {
        json(memoapp, "todo", "list", "--all") as? [[String: Any]] ?? []
    }

    /// Every memo whole (`memo show` of each listed one).
    static func memos(_ memoapp: Memoapp) -> [[String: Any]] {
        (json(memoapp, "memo", "list") as? [[String: Any]] ?? []).compactMap { summary in
            json(memoapp, "memo", "show", "\(summary["id"] as? Int ?? 0)") as? [String: Any]
        }
    }

    /// The LD_PRELOAD library that shifts a process's wall clock
    /// (fixtures/preload/shift-clock.c), built once per test run.
    static let clockShift = PreloadLibrary.build("shift-clock")

    /// The environment that runs memoapp with its wall clock `seconds` off.
    static func shiftedClock(by seconds: Int) throws -> [String: String] {
        ["LD_PRELOAD": try clockShift.get(), "MEMOAPP_TEST_CLOCK_SHIFT": "\(seconds)"]
    }
}
