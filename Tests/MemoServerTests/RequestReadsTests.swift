import Foundation
import MemoCore
import MemoKit
@testable import MemoServer
import Notes
import SQLite
import TestSupport
import XCTest

/// One request's reads share one read transaction (the access hook's and
/// the route's), and never hide the request's own writes from it.
final class RequestReadsTests: XCTestCase {
    private let directory = TemporaryDirectory()

    private func makeServices() throws -> (ServerServices, DatabasePool) {
        let home = DataHome(path: directory.appending("home"))
        let pool = try MemoDatabase.openPool(in: home, readers: 2)
        let services = ServerServices(home: home, pool: pool, clock: SystemWallClock(), isLoopback: true,
                                      maximumUpload: 1 << 20)
        return (services, pool)
    }

    /// Adds a to-do from another thread: this one may be inside a request's reads.
    private func addElsewhere(_ pool: DatabasePool, _ title: String) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? pool.write { try TodoStore(connection: $0).add(NewTodo(title: title)) }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
    }

    private static func count(_ workspace: Workspace) throws -> Int {
        try workspace.todoStore().todos(matching: TodoQuery(status: .all)).count
    }

    func testTheReadsOfOneRequestShareOneSnapshot() throws {
        let (services, pool) = try makeServices()
        defer { pool.close() }
        try services.withRequestReads {
            let first = try services.read { workspace in (try workspace.database(), try RequestReadsTests.count(workspace)) }
            addElsewhere(pool, "meanwhile")
            let second = try services.read { workspace in (try workspace.database(), try RequestReadsTests.count(workspace)) }
            XCTAssertTrue(first.0 === second.0, "one reader for the request")
            XCTAssertEqual(first.1, 0)
            XCTAssertEqual(second.1, 0, "a commit after the request's first read is not in its snapshot")
        }
        XCTAssertEqual(try services.read(RequestReadsTests.count), 1, "the next request sees it")
    }

    func testAWriteInARequestIsSeenByItsLaterReads() throws {
        let (services, pool) = try makeServices()
        defer { pool.close() }
        try services.withRequestReads {
            XCTAssertEqual(try services.read(RequestReadsTests.count), 0)
            _ = try services.write { try $0.todoStore().add(NewTodo(title: "mine")) }
            XCTAssertEqual(try services.read(RequestReadsTests.count), 1, "the write ended the old snapshot")
        }
    }

    func testEndingTheReadsLetsALaterReadSeeNewCommits() throws {
        let (services, pool) = try makeServices()
        defer { pool.close() }
        try services.withRequestReads {
            XCTAssertEqual(try services.read(RequestReadsTests.count), 0)
            addElsewhere(pool, "meanwhile")
            services.endRequestReads()
            XCTAssertEqual(try services.read(RequestReadsTests.count), 1)
        }
    }

    func testTheReaderGoesBackWhenTheRequestsWorkEndsOrThrows() throws {
        let (services, pool) = try makeServices()
        defer { pool.close() }
        struct Refused: Error {}
        for _ in 0..<5 {
            // Two readers: a lease kept past its request would leave none after two rounds.
            XCTAssertThrowsError(try services.withRequestReads {
                _ = try services.read(RequestReadsTests.count)
                throw Refused()
            })
            try services.withRequestReads { _ = try services.read(RequestReadsTests.count) }
        }
        XCTAssertLessThanOrEqual(pool.readerCount, 2)
        XCTAssertEqual(try pool.read { $0.isInsideTransaction }, true, "a plain read on this thread again")
    }
}
