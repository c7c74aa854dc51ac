import Foundation
import MemoCore
@testable import MemoKit
import Notes
import SQLite
import TestSupport
import Timers
import XCTest

/// Timers across devices: their actions are events, and pauses and laps
/// made on two devices all count (docs/sync.md).
final class TimerSyncTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var hub: Workspace!
    private var laptop: Workspace!
    private var phone: Workspace!

    override func setUpWithError() throws {
        hub = Workspace(home: DataHome(path: folder.appending("hub")))
        laptop = Workspace(home: DataHome(path: folder.appending("laptop")))
        phone = Workspace(home: DataHome(path: folder.appending("phone")))
        _ = try hub.database()
        for device in [laptop!, phone!] {
            try SyncRun.configure(device, server: "http://hub.invalid", token: "t")
        }
    }

    @discardableResult
    private func sync(_ device: Workspace) throws -> SyncRun.Report {
        try SyncRun(device, transport: InProcessHub(workspace: hub)).run(force: false)
    }

    private func timer(uid: String, in workspace: Workspace) throws -> TimerRecord {
        let id = try XCTUnwrap(try workspace.database().queryFirst("SELECT id FROM timers WHERE uid = ?", uid) { $0.int64(0) })
        return try TimerStore.load(id: id, from: workspace.database())
    }

    private func act(_ action: TimerAction, _ uid: String, in workspace: Workspace) throws {
        _ = try workspace.apply(ActOnTimer(action, id: try timer(uid: uid, in: workspace).id), origin: .cli)
    }

    private func startStopwatch(on workspace: Workspace, todoID: Int64? = nil) throws -> String {
        try workspace.apply(StartTimer(duration: nil, label: "run", todoID: todoID), origin: .cli).timer.uid
    }

    /// Same timer everywhere: its fields, spans and laps.
    private func assertSame(_ uid: String, _ workspaces: [Workspace], file: StaticString = #filePath, line: UInt = #line) throws {
        let timers = try workspaces.map { try timer(uid: uid, in: $0) }
        for other in timers.dropFirst() {
            XCTAssertEqual(other.state, timers[0].state, file: file, line: line)
            XCTAssertEqual(other.spans, timers[0].spans, file: file, line: line)
            XCTAssertEqual(other.laps, timers[0].laps, file: file, line: line)
            XCTAssertEqual(other.label, timers[0].label, file: file, line: line)
            XCTAssertEqual(other.endedAt, timers[0].endedAt, file: file, line: line)
        }
        for timer in timers { XCTAssertEqual(timer.consistencyProblems, [], file: file, line: line) }
    }

    func testATimerStartedOnOneDeviceReachesTheOthersWithItsSpansAndLaps() throws {
        let uid = try startStopwatch(on: laptop)
        try act(.lap, uid, in: laptop)
        try sync(laptop)
        try sync(phone)
        try assertSame(uid, [laptop, phone, hub])
        XCTAssertEqual(try timer(uid: uid, in: phone).state, .running)
        XCTAssertEqual(try timer(uid: uid, in: phone).laps.count, 1)
    }

    func testLapsTakenOnTwoDevicesAllCount() throws {
        let uid = try startStopwatch(on: laptop)
        try sync(laptop)
        try sync(phone)
        try act(.lap, uid, in: laptop)
        try act(.lap, uid, in: phone)
        try act(.lap, uid, in: phone)
        try sync(laptop)
        try sync(phone)
        try sync(laptop)
        try assertSame(uid, [laptop, phone, hub])
        let laps = try timer(uid: uid, in: hub).laps
        XCTAssertEqual(laps.map(\.number), [1, 2, 3], "numbered again in order of elapsed time")
        XCTAssertEqual(laps.map(\.elapsed), laps.map(\.elapsed).sorted())
    }

    func testAPauseOnOneDeviceAndALapOnTheOtherBothStay() throws {
        let uid = try startStopwatch(on: laptop)
        try sync(laptop)
        try sync(phone)
        try act(.lap, uid, in: phone)
        try act(.pause, uid, in: laptop)
        try sync(laptop)
        try sync(phone)
        try sync(laptop)
        try assertSame(uid, [laptop, phone, hub])
        let merged = try timer(uid: uid, in: hub)
        XCTAssertEqual(merged.state, .paused)
        XCTAssertEqual(merged.laps.count, 1)
        XCTAssertEqual(merged.spans.count, 1)
        XCTAssertNotNil(merged.spans[0].end)
    }

    func testAPauseOnBothDevicesEndsTheSpanAtTheFirst() throws {
        let uid = try startStopwatch(on: laptop)
        try sync(laptop)
        try sync(phone)
        try act(.pause, uid, in: laptop)
        let first = try XCTUnwrap(try timer(uid: uid, in: laptop).spans[0].end)
        try act(.pause, uid, in: phone)
        try sync(laptop)
        try sync(phone)
        try sync(laptop)
        try assertSame(uid, [laptop, phone, hub])
        XCTAssertEqual(try timer(uid: uid, in: hub).spans.map(\.end), [first])
    }

    func testAResumeAfterTheOtherDevicesPauseKeepsBothSpans() throws {
        let uid = try startStopwatch(on: laptop)
        try sync(laptop)
        try sync(phone)
        try act(.pause, uid, in: laptop)
        try act(.resume, uid, in: laptop)
        try act(.pause, uid, in: phone)
        try sync(laptop)
        try sync(phone)
        try sync(laptop)
        try assertSame(uid, [laptop, phone, hub])
        let merged = try timer(uid: uid, in: hub)
        XCTAssertEqual(merged.spans.count, 2, "the laptop's resume made a span of its own")
        XCTAssertEqual(merged.state, .paused, "the phone's pause is the later change of the state")
        XCTAssertTrue(merged.spans.allSatisfy { $0.end != nil })
    }

    func testAStopAndUndoOfAStartSync() throws {
        let uid = try startStopwatch(on: laptop)
        try sync(laptop)
        try sync(phone)
        try act(.stop, uid, in: phone)
        try sync(phone)
        try sync(laptop)
        try assertSame(uid, [laptop, phone, hub])
        XCTAssertEqual(try timer(uid: uid, in: laptop).state, .stopped)

        let second = try startStopwatch(on: laptop)
        try sync(laptop)
        try sync(phone)
        XCTAssertNoThrow(try timer(uid: second, in: phone))
        _ = try laptop.undoHistory().undo()
        try sync(laptop)
        try sync(phone)
        for workspace in [laptop!, phone!, hub!] {
            XCTAssertNil(try workspace.database().queryFirst("SELECT id FROM timers WHERE uid = ?", second) { $0.int64(0) })
        }
    }

    func testATimersToDoIsTiedByUidEvenWhenTheToDoArrivesLater() throws {
        let todo = try laptop.apply(AddTodo(NewTodo(title: "report")), origin: .cli)
        let uid = try startStopwatch(on: laptop, todoID: todo.id)
        // The to-do changes after the timer: the hub's pages bring the timer first.
        _ = try laptop.apply(EditTodo(id: todo.id, TodoChanges(title: "the report")), origin: .cli)
        try sync(laptop)
        let connection = try phone.database()
        _ = try SyncRun(phone, transport: OnePageAtATime(hub: InProcessHub(workspace: hub))).run(force: false)
        let phoneTodo = try XCTUnwrap(try connection.queryFirst("SELECT id FROM todos WHERE uid = ?", todo.uid) { $0.int64(0) })
        XCTAssertEqual(try timer(uid: uid, in: phone).todoID, phoneTodo)
        XCTAssertEqual(try SyncRun.status(phone)?.waiting, 0, "the tie is no change made on the phone")
    }

    func testAHostileTimerIsRefusedWhole() throws {
        let hubReader = InProcessHub(workspace: hub)
        func push(_ values: String) throws {
            let document = """
                {"epoch": null, "device": "\(UUID4.random())", "from": 0, "changes": [{"kind": "timer", "uid": "\(UUID4.random())",
                "change": 1, "removed": false, "changed": ["events"], "clocks": {"events": 1}, "values": \(values)}]}
                """
            _ = try hubReader.push(JSON.parse(Array(document.utf8)))
        }
        let span = #"{"start": {"wall": 1800000000, "boot": 10, "boot_id": "b"}, "end": null}"#
        let good = #"{"kind": "stopwatch", "duration": null, "created_at": 1800000000, "label": null, "state": "running", "ended_at": null, "todo": null, "seen_at": null, "laps": [], "spans": [SPAN]}"#
        XCTAssertNoThrow(try push(good.replacingOccurrences(of: "SPAN", with: span)))
        let withSpan = good.replacingOccurrences(of: "SPAN", with: span)
        var bads: [String] = []
        bads.append(good.replacingOccurrences(of: "SPAN", with: ""))
        bads.append(good.replacingOccurrences(of: "SPAN", with: span + "," + span))
        bads.append(withSpan.replacingOccurrences(of: "\"running\"", with: "\"paused\""))
        bads.append(withSpan.replacingOccurrences(of: "stopwatch", with: "countdown"))
        bads.append(good.replacingOccurrences(of: "SPAN", with: span.replacingOccurrences(of: "\"b\"", with: "\"a\\u0001\"")))
        bads.append(good.replacingOccurrences(of: "SPAN", with: span.replacingOccurrences(of: "10", with: "1e300")))
        bads.append(withSpan.replacingOccurrences(of: "\"label\": null", with: "\"label\": \" x\""))
        bads.append(withSpan.replacingOccurrences(of: "\"todo\": null", with: "\"todo\": \"7\""))
        bads.append(withSpan.replacingOccurrences(of: "\"laps\": []", with: "\"laps\": [{\"elapsed\": -1, \"estimated\": false, \"at\": 1}]"))
        bads.append(withSpan.replacingOccurrences(of: "\"seen_at\": null", with: "\"seen_at\": null, \"tags\": []"))
        for bad in bads {
            XCTAssertThrowsError(try push(bad), bad) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .badInput, "\(error)")
            }
        }
    }
}

/// Pulls one item a page, so that the order of the hub's pages shows.
private struct OnePageAtATime: SyncTransport {
    let hub: InProcessHub
    func pull(after cursor: Int64, epoch: String?, limit: Int, counting: Bool) throws -> JSONReader {
        try hub.pull(after: cursor, epoch: epoch, limit: 1, counting: counting)
    }
    func push(_ document: JSON) throws -> JSONReader { try hub.push(document) }
    func blobReceived(_ checksum: String) throws -> Int64? { try hub.blobReceived(checksum) }
    func uploadBlob(_ checksum: String, path: String, offset: Int64, size: Int64) throws {
        try hub.uploadBlob(checksum, path: path, offset: offset, size: size)
    }
    func downloadBlob(_ checksum: String, offset: Int64, write: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        try hub.downloadBlob(checksum, offset: offset, write: write)
    }
}
