import XCTest
import Foundation
import MemoCore
import SQLite
import Timers

/// A clock the test moves by hand: time passing, the date being set, a reboot.
final class ManualTimerClock: TimerClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: ClockReading
    private var boots = 1

    init(wall: Double = 1_800_000_000, boot: Double = 5_000, bootID: String = "boot-1") {
        current = ClockReading(wall: Timestamp(secondsSince1970: wall), boot: boot, bootID: bootID)
    }

    func reading() -> ClockReading { lock.withLock { current } }

    /// Real time passes: both clocks move together.
    func advance(by seconds: Double) {
        lock.withLock { current = current.shifted(by: seconds) }
    }

    /// Someone sets the date (or NTP steps it): only the wall clock moves.
    func jumpWall(by seconds: Double) {
        lock.withLock { current.wall = current.wall.adding(seconds: seconds) }
    }

    /// The machine is off for `downtime` seconds and boots again: a new boot id,
    /// the boot clock restarting near zero, the wall clock moved on.
    func reboot(downtime: Double, bootClockAfter: Double = 12) {
        lock.withLock {
            boots += 1
            current = ClockReading(wall: current.wall.adding(seconds: downtime), boot: bootClockAfter,
                                   bootID: "boot-\(boots)")
        }
    }
}

/// A fresh temporary directory per test, removed afterwards.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("timers-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A migrated database in `directory`.
func makeConnection(in directory: URL) throws -> Connection {
    let connection = try Connection(path: directory.appendingPathComponent("memoapp.db").path)
    var migrator = Migrator()
    migrator.register(TimerStore.migrations)
    try migrator.apply(to: connection)
    return connection
}

/// Asserts that `body` throws a MemoError of `kind`, and returns it for more checks.
@discardableResult
func assertMemoError<T>(_ kind: ErrorKind, file: StaticString = #filePath, line: UInt = #line,
                        _ body: () throws -> T) -> MemoError? {
    do {
        _ = try body()
        XCTFail("expected MemoError(\(kind)), got success", file: file, line: line)
    } catch let error as MemoError {
        XCTAssertEqual(error.kind, kind, "\(error)", file: file, line: line)
        return error
    } catch {
        XCTFail("expected MemoError(\(kind)), got \(error)", file: file, line: line)
    }
    return nil
}
