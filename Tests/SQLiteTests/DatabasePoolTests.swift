import Foundation
import SQLite
import TestSupport
import XCTest

/// One writer and concurrent readers over one WAL database, from many threads,
/// beside another pool and another process on the same file.
///
/// Threads meet through semaphores that the waiting side waits on with a long
/// deadline: a test that fails stops there instead of hanging, and none
/// depends on how fast a thread gets somewhere.
final class DatabasePoolTests: SQLiteTestCase {
    private let deadline: TimeInterval = 30

    /// Two accounts holding 100 between them, and a log of every move of 1
    /// from the first to the second: a reader that sees a half-done move sees
    /// a total other than 100, or a log that disagrees with the balances.
    private func makeBank(maximumReaderCount: Int = 4, busyTimeoutMilliseconds: Int32 = 5000) throws -> DatabasePool {
        var configuration = Configuration.memoappDatabase
        configuration.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        let pool = try DatabasePool(path: databasePath, configuration: configuration,
                                    maximumReaderCount: maximumReaderCount)
        try pool.write { db in
            try db.executeScript("""
                CREATE TABLE IF NOT EXISTS accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
                CREATE TABLE IF NOT EXISTS moves (id INTEGER PRIMARY KEY, note TEXT);
                INSERT OR IGNORE INTO accounts VALUES (1, 100), (2, 0);
                """)
        }
        return pool
    }

    private static let moveSQL = [
        "UPDATE accounts SET balance = balance - 1 WHERE id = 1",
        "UPDATE accounts SET balance = balance + 1 WHERE id = 2",
        "INSERT INTO moves (note) VALUES ('pool')",
    ]

    /// What a reader sees, read in three separate queries of one read.
    private struct Books: Equatable {
        let first: Int, second: Int, moves: Int
        var isConsistent: Bool { first + second == 100 && second == moves }
    }

    private static func books(_ db: Connection) throws -> Books {
        Books(first: try db.queryFirst("SELECT balance FROM accounts WHERE id = 1") { $0.int(0) } ?? -1,
              second: try db.queryFirst("SELECT balance FROM accounts WHERE id = 2") { $0.int(0) } ?? -1,
              moves: try db.queryFirst("SELECT count(*) FROM moves") { $0.int(0) } ?? -1)
    }

    // MARK: One writer, many readers

    func testManyThreadsReadingWhileOneWritesSeeOnlyCommittedStates() throws {
        let pool = try makeBank()
        let moveCount = 150
        let writerIsDone = Locked(false)
        let seen = Locked<[Books]>([])
        let failures = Locked<[String]>([])
        let readers = (0..<4).map { _ in
            startThread {
                var reads = 0
                // At least a few reads each, then on until the writer is done.
                while reads < 5 || !writerIsDone.current {
                    do {
                        let books = try pool.read { try DatabasePoolTests.books($0) }
                        seen.withValue { $0.append(books) }
                    } catch {
                        failures.withValue { $0.append("read: \(error)") }
                        return
                    }
                    reads += 1
                }
            }
        }
        let writer = startThread {
            defer { writerIsDone.withValue { $0 = true } }
            do {
                for _ in 0..<moveCount {
                    try pool.write { db in for sql in DatabasePoolTests.moveSQL { try db.execute(sql) } }
                }
            } catch {
                failures.withValue { $0.append("write: \(error)") }
            }
        }
        for thread in readers + [writer] { XCTAssertEqual(thread.wait(timeout: .now() + deadline), .success) }

        XCTAssertEqual(failures.current, [])
        XCTAssertEqual(seen.current.filter { !$0.isConsistent }, [], "a reader saw a write half-done")
        XCTAssertGreaterThanOrEqual(seen.current.count, 20)
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }, Books(first: 100 - moveCount, second: moveCount,
                                                                              moves: moveCount))
        XCTAssertLessThanOrEqual(pool.readerCount, 4)
    }

    func testAReadDoesNotWaitForTheWriter() throws {
        let pool = try makeBank()
        let writing = DispatchSemaphore(value: 0)
        let readIsDone = DispatchSemaphore(value: 0)
        let writerWaited = Locked(DispatchTimeoutResult.timedOut)
        let writer = startThread {
            try? pool.write { db in
                try db.execute(DatabasePoolTests.moveSQL[0])
                writing.signal()
                // The transaction stays open, its lock held, until the read has returned.
                writerWaited.withValue { $0 = readIsDone.wait(timeout: .now() + 30) }
            }
        }
        XCTAssertEqual(writing.wait(timeout: .now() + deadline), .success)
        let books = try pool.read { try DatabasePoolTests.books($0) }
        readIsDone.signal()
        XCTAssertEqual(books, Books(first: 100, second: 0, moves: 0), "the write in progress is invisible")
        XCTAssertEqual(writer.wait(timeout: .now() + deadline), .success)
        XCTAssertEqual(writerWaited.current, .success, "the read returned while the write transaction was open")
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }.first, 99)
    }

    func testAReadSeesTheDatabaseAsItWasWhenTheReadBegan() throws {
        let pool = try makeBank()
        let reading = DispatchSemaphore(value: 0)
        let committed = DispatchSemaphore(value: 0)
        let seen = Locked<Books?>(nil)
        let reader = startThread {
            let books = try? pool.read { db -> Books in
                reading.signal()
                _ = committed.wait(timeout: .now() + 30)
                // The first query of this read comes after the commit.
                return try DatabasePoolTests.books(db)
            }
            seen.withValue { $0 = books }
        }
        XCTAssertEqual(reading.wait(timeout: .now() + deadline), .success)
        try pool.write { db in for sql in DatabasePoolTests.moveSQL { try db.execute(sql) } }
        committed.signal()
        XCTAssertEqual(reader.wait(timeout: .now() + deadline), .success)
        XCTAssertEqual(seen.current, Books(first: 100, second: 0, moves: 0))
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }, Books(first: 99, second: 1, moves: 1))
    }

    func testWritesFromManyThreadsRunOneAtATimeAndLoseNothing() throws {
        let pool = try makeBank()
        let inside = Locked((now: 0, most: 0))
        let failures = Locked<[String]>([])
        let threads = (0..<4).map { _ in
            startThread {
                for _ in 0..<40 {
                    do {
                        try pool.write { db in
                            inside.withValue { $0.now += 1; $0.most = max($0.most, $0.now) }
                            defer { inside.withValue { $0.now -= 1 } }
                            // Read, then write what was read plus one: two writers at once would lose one.
                            let balance = try db.queryFirst("SELECT balance FROM accounts WHERE id = 2") { $0.int(0) } ?? 0
                            try db.execute("UPDATE accounts SET balance = ? WHERE id = 2", balance + 1)
                        }
                    } catch {
                        failures.withValue { $0.append("\(error)") }
                    }
                }
            }
        }
        for thread in threads { XCTAssertEqual(thread.wait(timeout: .now() + deadline), .success) }
        XCTAssertEqual(failures.current, [])
        XCTAssertEqual(inside.current.most, 1)
        XCTAssertEqual(try pool.read { try $0.queryFirst("SELECT balance FROM accounts WHERE id = 2") { $0.int(0) } }, 160)
    }

    // MARK: Connections

    func testReadersAreOpenedWhenNeededAndReused() throws {
        let pool = try makeBank(maximumReaderCount: 3)
        XCTAssertEqual(pool.readerCount, 0, "no reader before the first read")
        var identities = Set<ObjectIdentifier>()
        for _ in 0..<10 { _ = try pool.read { identities.insert(ObjectIdentifier($0)) } }
        XCTAssertEqual(identities.count, 1, "one thread reading again and again reuses one reader")
        XCTAssertEqual(pool.readerCount, 1)
    }

    func testReadsBeyondTheMaximumWaitForAReaderAndReuseIt() throws {
        let pool = try makeBank(maximumReaderCount: 3)
        let holding = DispatchSemaphore(value: 0)
        let release = (0..<3).map { _ in DispatchSemaphore(value: 0) }
        let held = Locked<[Int: ObjectIdentifier]>([:])
        let holders = (0..<3).map { index in
            startThread {
                try? pool.read { db in
                    held.withValue { $0[index] = ObjectIdentifier(db) }
                    holding.signal()
                    _ = release[index].wait(timeout: .now() + 30)
                }
            }
        }
        for _ in 0..<3 { XCTAssertEqual(holding.wait(timeout: .now() + deadline), .success) }
        XCTAssertEqual(Set(held.current.values).count, 3, "three threads at once, three connections")
        XCTAssertEqual(pool.readerCount, 3)

        let fourth = Locked<ObjectIdentifier?>(nil)
        let late = startThread { try? pool.read { db in fourth.withValue { $0 = ObjectIdentifier(db) } } }
        release[1].signal()
        XCTAssertEqual(late.wait(timeout: .now() + deadline), .success)
        XCTAssertNotNil(fourth.current)
        XCTAssertTrue(Set(held.current.values).contains(fourth.current!), "the fourth read used a reader given back")
        XCTAssertEqual(pool.readerCount, 3, "never more readers than the maximum")
        release[0].signal()
        release[2].signal()
        for thread in holders { XCTAssertEqual(thread.wait(timeout: .now() + deadline), .success) }
    }

    func testAReaderCannotWrite() throws {
        let pool = try makeBank()
        let error = assertThrowsSQLiteError(try pool.read { try $0.execute(DatabasePoolTests.moveSQL[0]) })
        XCTAssertEqual(error?.codeName, "SQLITE_READONLY")
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }.first, 100)
    }

    func testAFailedWriteRollsBackAndThePoolGoesOn() throws {
        struct Abort: Error {}
        let pool = try makeBank()
        XCTAssertThrowsError(try pool.write { db in
            try db.execute(DatabasePoolTests.moveSQL[0])
            throw Abort()
        }) { XCTAssertTrue($0 is Abort) }
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }.first, 100)
        try pool.write { db in for sql in DatabasePoolTests.moveSQL { try db.execute(sql) } }
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }, Books(first: 99, second: 1, moves: 1))
    }

    func testWriteWithoutTransactionRunsOutsideOne() throws {
        let pool = try makeBank()
        let inside = try pool.writeWithoutTransaction { db -> Bool in
            try Migrator().apply(to: db)
            return db.isInsideTransaction
        }
        XCTAssertFalse(inside)
        XCTAssertTrue(try pool.write { $0.isInsideTransaction })
    }

    func testATransactionLeftOpenByAWriteIsRolledBack() throws {
        let pool = try makeBank()
        try pool.writeWithoutTransaction { db in
            try db.execute("BEGIN IMMEDIATE")
            try db.execute(DatabasePoolTests.moveSQL[0])
        }
        XCTAssertFalse(try pool.writeWithoutTransaction { $0.isInsideTransaction })
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }.first, 100)
    }

    func testAPoolRefusesADatabaseThatIsNotItsProgramsAndLeavesItAlone() throws {
        try makeForeignDatabase(at: databasePath, applicationID: 7)
        let before = try XCTUnwrap(fileBytes(databasePath))
        let error = assertThrowsSQLiteError(try DatabasePool(path: databasePath, configuration: .memoappDatabase))
        XCTAssertEqual(error?.code, ResultCode.notADatabase)
        XCTAssertEqual(fileBytes(databasePath), before)
    }

    // MARK: Beside other writers

    func testTwoPoolsOnOneFileSeeEachOthersCommitsAndLoseNoWrites() throws {
        let first = try makeBank()
        let second = try makeBank()
        try first.write { db in for sql in DatabasePoolTests.moveSQL { try db.execute(sql) } }
        XCTAssertEqual(try second.read { try DatabasePoolTests.books($0) }, Books(first: 99, second: 1, moves: 1))

        let failures = Locked<[String]>([])
        let threads = [first, second, first, second].map { pool in
            startThread {
                for _ in 0..<30 {
                    do {
                        try pool.write { db in
                            let balance = try db.queryFirst("SELECT balance FROM accounts WHERE id = 1") { $0.int(0) } ?? 0
                            try db.execute("UPDATE accounts SET balance = ? WHERE id = 1", balance - 1)
                            try db.execute(DatabasePoolTests.moveSQL[1])
                            try db.execute(DatabasePoolTests.moveSQL[2])
                        }
                        let books = try pool.read { try DatabasePoolTests.books($0) }
                        if !books.isConsistent { failures.withValue { $0.append("inconsistent: \(books)") } }
                    } catch {
                        failures.withValue { $0.append("\(error)") }
                    }
                }
            }
        }
        for thread in threads { XCTAssertEqual(thread.wait(timeout: .now() + deadline), .success) }
        XCTAssertEqual(failures.current, [])
        XCTAssertEqual(try first.read { try DatabasePoolTests.books($0) }, Books(first: -21, second: 121, moves: 121))
    }

    func testAWriterInAnotherProcessNeitherBlocksReadersNorShowsThemHalfAWrite() throws {
        let pool = try makeBank()
        let holdingMark = directory.appending("holding")
        let shell = try SQLiteShell(database: databasePath)
        // The other process takes the write lock and stays half-way through a move.
        try shell.send("""
            .timeout 10000
            BEGIN IMMEDIATE;
            UPDATE accounts SET balance = balance - 1 WHERE id = 1;
            .system touch \(holdingMark)
            """)
        XCTAssertTrue(waitUntil { fileExists(holdingMark) }, "the sqlite3 shell did not take the lock")

        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }, Books(first: 100, second: 0, moves: 0),
                       "a read goes on while another process holds the write lock")
        let impatient = try DatabasePool(path: databasePath,
                                         configuration: Configuration(busyTimeoutMilliseconds: 50, applicationID: 0x4D45_4D4F))
        let busy = assertThrowsSQLiteError(try impatient.write { _ in })
        XCTAssertEqual(busy?.codeName, "SQLITE_BUSY", "BEGIN IMMEDIATE waits for the other process, then gives up")
        impatient.close()

        // A patient write waits for the lock; meanwhile readers keep reading.
        let patientWrite = startThread {
            try? pool.write { db in for sql in DatabasePoolTests.moveSQL { try db.execute(sql) } }
        }
        let shellIsDone = Locked(false)
        let seen = Locked<[Books]>([])
        let readers = (0..<3).map { _ in
            startThread {
                var reads = 0
                while reads < 5 || !shellIsDone.current {
                    guard let books = try? pool.read({ try DatabasePoolTests.books($0) }) else { return }
                    seen.withValue { $0.append(books) }
                    reads += 1
                }
            }
        }
        var script = "UPDATE accounts SET balance = balance + 1 WHERE id = 2;\nINSERT INTO moves (note) VALUES ('shell');\nCOMMIT;\n"
        for _ in 0..<100 {
            script += "BEGIN IMMEDIATE;\n" + DatabasePoolTests.moveSQL.map { $0 + ";\n" }.joined() + "COMMIT;\n"
        }
        try shell.send(script)
        let status = try shell.finish()
        shellIsDone.withValue { $0 = true }
        XCTAssertEqual(status, 0, shell.errors)

        for thread in readers + [patientWrite] { XCTAssertEqual(thread.wait(timeout: .now() + deadline), .success) }
        XCTAssertEqual(seen.current.filter { !$0.isConsistent }, [], "a reader saw the other process's write half-done")
        XCTAssertEqual(try pool.read { try DatabasePoolTests.books($0) }, Books(first: 98 - 100, second: 102, moves: 102))
    }

    // MARK: Closing

    func testClosingWaitsForTheWorkInFlightThenRefusesNewWork() throws {
        let pool = try makeBank(maximumReaderCount: 1)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let readResult = Locked<Books?>(nil)
        let reader = startThread {
            let books = try? pool.read { db -> Books in
                entered.signal()
                _ = release.wait(timeout: .now() + 30)
                return try DatabasePoolTests.books(db)
            }
            readResult.withValue { $0 = books }
        }
        let writer = startThread {
            try? pool.write { db in
                entered.signal()
                _ = release.wait(timeout: .now() + 30)
                for sql in DatabasePoolTests.moveSQL { try db.execute(sql) }
            }
        }
        XCTAssertEqual(entered.wait(timeout: .now() + deadline), .success)
        XCTAssertEqual(entered.wait(timeout: .now() + deadline), .success)
        // A read queued behind the only reader: when the pool closes, it is refused.
        let queuedError = Locked<SQLiteError?>(nil)
        let queued = startThread {
            do { try pool.read { _ in } } catch { queuedError.withValue { $0 = error as? SQLiteError } }
        }

        let closed = DispatchSemaphore(value: 0)
        let closer = startThread {
            pool.close()
            closed.signal()
        }
        XCTAssertTrue(waitUntil { (try? pool.write { _ in }) == nil }, "the pool never began to close")
        XCTAssertEqual(queued.wait(timeout: .now() + deadline), .success)
        XCTAssertEqual(queuedError.current?.codeName, "SQLITE_MISUSE")
        XCTAssertEqual(closed.wait(timeout: .now()), .timedOut, "close returned while a read and a write were running")

        release.signal()
        release.signal()
        for thread in [reader, writer, closer] { XCTAssertEqual(thread.wait(timeout: .now() + deadline), .success) }
        XCTAssertEqual(readResult.current?.first, 100, "the read in flight finished with its own snapshot")
        XCTAssertEqual(pool.readerCount, 0)
        let refused = assertThrowsSQLiteError(try pool.read { _ in })
        XCTAssertTrue(refused?.message.contains("closed") ?? false, "\(String(describing: refused))")
        pool.close()  // again: nothing happens

        XCTAssertFalse(fileExists(databasePath + "-wal"), "the last connection checkpointed and removed the WAL")
        let after = try Connection(path: databasePath, configuration: .memoappDatabase)
        XCTAssertEqual(try DatabasePoolTests.books(after), Books(first: 99, second: 1, moves: 1),
                       "the write in flight was committed")
    }

    // MARK: - Helpers

    /// Runs `body` on a new thread; the semaphore is signalled when it returns.
    private func startThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done
    }

    /// Checks `condition` until it holds or the deadline passes.
    private func waitUntil(_ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(deadline)
        while Date() < end {
            if condition() { return true }
            usleep(2_000)
        }
        return condition()
    }
}
