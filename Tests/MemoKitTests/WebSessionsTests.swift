import Foundation
import MemoCore
@testable import MemoKit
import SQLite
import TestSupport
import XCTest

/// Web sessions (issue 29, finding 2): a week from the last use, renewed on
/// use at most once an hour; listed and ended by id. Every time is a fixed
/// instant handed in, never today's.
final class WebSessionsTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var sessions: WebSessions!
    private let start = Timestamp(secondsSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        sessions = WebSessions(connection: try Workspace(home: DataHome(path: folder.appending("home"))).database())
    }

    override func tearDown() {
        sessions = nil
    }

    private func at(_ seconds: Double) -> Timestamp {
        Timestamp(secondsSince1970: start.secondsSince1970 + seconds)
    }

    private func signIn(at now: Timestamp) throws -> (WebSessions.Session, String) {
        let made = try sessions.createCode(at: now)
        XCTAssertEqual(made.expiresAt.secondsSince1970, now.secondsSince1970 + WebSessions.codeLifetime)
        return try XCTUnwrap(sessions.signIn(code: made.code, at: now))
    }

    func testASessionLastsAWeekFromItsLastUseRenewedAtMostHourly() throws {
        let (session, secret) = try signIn(at: start)
        XCTAssertEqual(session.expiresAt, at(WebSessions.sessionLifetime))
        XCTAssertEqual(WebSessions.sessionLifetime, 7 * 86400)
        // Used half an hour later: no write.
        let soon = try XCTUnwrap(sessions.session(secret: secret, at: at(1800)))
        XCTAssertFalse(WebSessions.needsRenewal(soon, at: at(1800)))
        // Two hours later: renewed to a week from then.
        let later = try XCTUnwrap(sessions.session(secret: secret, at: at(7200)))
        XCTAssertTrue(WebSessions.needsRenewal(later, at: at(7200)))
        try sessions.renew(digest: later.digest, at: at(7200))
        let renewed = try XCTUnwrap(sessions.session(secret: secret, at: at(7200)))
        XCTAssertEqual(renewed.expiresAt, at(7200 + WebSessions.sessionLifetime))
        // Used past its original week thanks to the renewal, not past its own.
        XCTAssertNotNil(try sessions.session(secret: secret, at: at(WebSessions.sessionLifetime + 3600)))
        XCTAssertNil(try sessions.session(secret: secret, at: at(7200 + WebSessions.sessionLifetime)))
        XCTAssertFalse(try sessions.isLive(digest: renewed.digest, at: at(7200 + WebSessions.sessionLifetime)))
        // An expired session is not brought back by a renewal.
        try sessions.renew(digest: renewed.digest, at: at(7200 + WebSessions.sessionLifetime + 1))
        XCTAssertNil(try sessions.session(secret: secret, at: at(7200 + WebSessions.sessionLifetime + 1)))
    }

    func testASessionFromWhenTheyLasted30DaysIsShortenedAtItsNextUse() throws {
        let (session, secret) = try signIn(at: start)
        try sessions.connection.execute("UPDATE api_sessions SET expires_at = ?", at(30 * 86400).secondsSince1970)
        let old = try XCTUnwrap(sessions.session(secret: secret, at: at(60)))
        XCTAssertTrue(WebSessions.needsRenewal(old, at: at(60)))
        try sessions.renew(digest: session.digest, at: at(60))
        XCTAssertEqual(try sessions.session(secret: secret, at: at(60))?.expiresAt, at(60 + WebSessions.sessionLifetime))
    }

    func testSessionsAreListedAndEndedByID() throws {
        let (first, firstSecret) = try signIn(at: start)
        let (second, secondSecret) = try signIn(at: at(60))
        let listed = try sessions.list(at: at(120))
        XCTAssertEqual(listed.map(\.id), [second.id, first.id], "the newest first")
        XCTAssertEqual(listed.first?.createdAt, at(60))
        XCTAssertTrue(listed.allSatisfy { $0.id.count == 12 && $0.id.allSatisfy(\.isHexDigit) })
        // An id in upper case is the same id.
        XCTAssertEqual(try sessions.end(id: first.id.uppercased()).id, first.id)
        XCTAssertNil(try sessions.session(secret: firstSecret, at: at(120)))
        XCTAssertNotNil(try sessions.session(secret: secondSecret, at: at(120)))
        XCTAssertEqual(try sessions.list(at: at(120)).map(\.id), [second.id])
        // Expired ones are not listed.
        XCTAssertEqual(try sessions.list(at: at(60 + WebSessions.sessionLifetime)).count, 0)
        XCTAssertEqual(try sessions.endAll(at: at(120)), 1)
        XCTAssertNil(try sessions.session(secret: secondSecret, at: at(120)))
    }

    func testABadOrUnknownSessionIDEndsNothing() throws {
        let (session, secret) = try signIn(at: start)
        for bad in ["", "abc", String(repeating: "g", count: 12), String(session.id.dropLast()), session.id + "0",
                    "12345678901\u{1B}", " " + session.id.dropFirst()] {
            XCTAssertThrowsError(try sessions.end(id: bad), bad.debugDescription) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, bad.debugDescription)
            }
        }
        let unknown = session.id.first == "0" ? "1" + session.id.dropFirst() : "0" + session.id.dropFirst()
        XCTAssertThrowsError(try sessions.end(id: String(unknown))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .notFound)
        }
        XCTAssertNotNil(try sessions.session(secret: secret, at: at(1)))
    }
}
