import Foundation
@testable import HTTPServer
import MemoCore
import XCTest

/// Which connections the guard closes to make room near the server's limit.
final class ConnectionGuardTests: XCTestCase {
    /// libmicrohttpd accepts a burst of connections before it reads any of
    /// them: 975 clients subscribing to events at once went past the guard's
    /// threshold while the heads of those accepted a moment before lay
    /// unread in their sockets, and some of them were closed (scripts/bench).
    func testAConnectionWhoseRequestLiesUnreadIsNotClosedToMakeRoom() throws {
        let connections = ConnectionGuard(connectionLimit: 16, perAddress: nil, idleAge: 0)  // room made past 15
        let pairs = try (0..<16).map { _ in try SocketPair() }
        defer { pairs.forEach { $0.close() } }
        pairs[0].client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        connections.opened(OpaquePointer(bitPattern: 1)!, socket: pairs[0].server, address: "127.0.0.1")
        // Opened later than the first, by a clock that counts in nanoseconds.
        usleep(2_000)
        for index in 1..<15 {
            connections.opened(OpaquePointer(bitPattern: index + 1)!, socket: pairs[index].server, address: "127.0.0.1")
        }
        XCTAssertEqual(connections.evictions, 0, "fifteen fit")

        connections.opened(OpaquePointer(bitPattern: 16)!, socket: pairs[15].server, address: "127.0.0.1")
        XCTAssertEqual(connections.evictions, 1, "the sixteenth makes one room")
        XCTAssertFalse(pairs[0].isShutDown, "the first connection's request is in its socket: it is not idle")
        XCTAssertTrue(pairs[1].isShutDown, "the one waiting longest with nothing sent made room")
    }

    /// A client connects, then writes its head: a connection accepted a
    /// moment ago with nothing in its socket is not idle yet, and newcomers
    /// past the reserve closed each other that way (975 event subscribers).
    func testAConnectionYoungerThanTheIdleAgeIsNotClosedToMakeRoom() throws {
        let connections = ConnectionGuard(connectionLimit: 16, perAddress: nil, idleAge: 3600)
        let pairs = try (0..<17).map { _ in try SocketPair() }
        defer { pairs.forEach { $0.close() } }
        for index in 0..<16 {
            connections.opened(OpaquePointer(bitPattern: index + 1)!, socket: pairs[index].server, address: "127.0.0.1")
        }
        XCTAssertEqual(connections.evictions, 0, "none has waited an hour")
        XCTAssertFalse(pairs[0].isShutDown)
    }

    /// A burst of idle clients that fills the server before any is of age:
    /// past libmicrohttpd's limit no newcomer is accepted, so no newcomer's
    /// arrival closes them, and the owner waited for the time-out (issue 29,
    /// finding 4, 17 addresses of 64). The watcher closes them once of age.
    func testConnectionsThatComeOfAgePastTheThresholdAreClosedWithoutANewcomer() throws {
        let connections = ConnectionGuard(connectionLimit: 16, perAddress: nil, idleAge: 3600)  // room made past 15
        let pairs = try (0..<17).map { _ in try SocketPair() }
        defer { pairs.forEach { $0.close() } }
        for index in 0..<17 {
            connections.opened(OpaquePointer(bitPattern: index + 1)!, socket: pairs[index].server, address: "127.0.0.\(index)")
            usleep(1_000)
        }
        XCTAssertEqual(connections.evictions, 0, "none is of age yet")
        XCTAssertEqual(connections.makeRoomForNewcomers(at: .now()), 0, "nor is any a moment later")
        XCTAssertEqual(connections.makeRoomForNewcomers(at: MonotonicTime.now().adding(seconds: 3601)), 2,
                       "once of age, down to the threshold")
        XCTAssertTrue(pairs[0].isShutDown && pairs[1].isShutDown, "the two waiting longest")
        XCTAssertFalse(pairs[2...].contains { $0.isShutDown }, "and no more")
        XCTAssertEqual(connections.makeRoomForNewcomers(at: MonotonicTime.now().adding(seconds: 3601)), 0)
    }

    /// Past the idle age, the longest waiting makes room, as before.
    func testAConnectionOlderThanTheIdleAgeMakesRoom() throws {
        let connections = ConnectionGuard(connectionLimit: 16, perAddress: nil, idleAge: 0)
        let pairs = try (0..<16).map { _ in try SocketPair() }
        defer { pairs.forEach { $0.close() } }
        connections.opened(OpaquePointer(bitPattern: 1)!, socket: pairs[0].server, address: "127.0.0.1")
        usleep(2_000)
        for index in 1..<16 {
            connections.opened(OpaquePointer(bitPattern: index + 1)!, socket: pairs[index].server, address: "127.0.0.1")
        }
        XCTAssertEqual(connections.evictions, 1)
        XCTAssertTrue(pairs[0].isShutDown, "the connection waiting longest made room")
    }
}

/// Two connected sockets: `server`'s end is given to the guard, `client`'s
/// tells whether the guard shut it down.
private struct SocketPair {
    let server: Int32
    let client: Int32

    init() throws {
        var descriptors: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &descriptors) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        (server, client) = (descriptors[0], descriptors[1])
    }

    /// Whether the peer shut it down: a read that would wait means open,
    /// end of file means shut.
    var isShutDown: Bool {
        var byte: UInt8 = 0
        return recv(client, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    func close() {
        Glibc.close(server)
        Glibc.close(client)
    }
}

private extension Int32 {
    func send(_ text: String) {
        _ = text.utf8CString.withUnsafeBytes { Glibc.send(self, $0.baseAddress, $0.count - 1, 0) }
    }
}
