import Foundation
import MemoCore
@testable import MemoKit
import SQLite
import TestSupport
import XCTest

/// Issue 29, finding 15: a short code a person types into a phone app,
/// exchanged once for a token that may expire. Every time is a fixed
/// instant handed in, never today's.
final class DeviceCodesTests: XCTestCase {
    private let folder = TemporaryDirectory()
    private var connection: Connection!
    private var codes: DeviceCodes!
    private var tokens: AccessTokens!
    private let start = Timestamp(secondsSince1970: 1_800_000_000)

    override func setUpWithError() throws {
        connection = try Workspace(home: DataHome(path: folder.appending("home"))).database()
        codes = DeviceCodes(connection: connection)
        tokens = AccessTokens(connection: connection)
    }

    override func tearDown() {
        codes = nil
        tokens = nil
        connection = nil
    }

    private func at(_ seconds: Double) -> Timestamp {
        start.adding(seconds: seconds)
    }

    func testACodeIsEightSymbolsExchangedOnceForATokenOfItsNameAndLifetime() throws {
        let made = try codes.create(tokenName: "phone", tokenLifetime: 30 * 86400, at: start)
        let alphabet = Set("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
        XCTAssertEqual(made.code.count, 9, made.code)
        XCTAssertEqual(Array(made.code)[4], "-", made.code)
        XCTAssertTrue(made.code.filter { $0 != "-" }.allSatisfy(alphabet.contains), made.code)
        XCTAssertEqual(made.expiresAt, at(DeviceCodes.codeLifetime))
        // Typed as a person might: lower case, no dash, spaces.
        let typed = " " + made.code.lowercased().replacingOccurrences(of: "-", with: " ") + " "
        let (token, secret) = try XCTUnwrap(codes.exchange(code: typed, at: at(60)))
        XCTAssertEqual(token.name, "phone")
        XCTAssertEqual(token.createdAt, at(60))
        XCTAssertEqual(token.expiresAt, at(60 + 30 * 86400))
        XCTAssertEqual(try tokens.verify(secret: secret, at: at(61))?.token.name, "phone")
        XCTAssertNil(try codes.exchange(code: made.code, at: at(62)), "used up")
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM api_device_codes") { $0.int(0) }, 0)
    }

    func testAnExpiredTokenIsRefusedAndListedAsItWas() throws {
        let (_, secret) = try tokens.create(name: "month", lifetime: 30 * 86400, at: start)
        let (_, forever) = try tokens.create(name: "forever", at: start)
        XCTAssertNotNil(try tokens.verify(secret: secret, at: at(30 * 86400 - 1)))
        XCTAssertNil(try tokens.verify(secret: secret, at: at(30 * 86400)), "expired at its expiry")
        XCTAssertNotNil(try tokens.verify(secret: forever, at: at(3650 * 86400)))
        let digest = try SHA256Digest.of(Array(secret.utf8))
        XCTAssertTrue(try tokens.isLive(digest: digest, at: at(0)))
        XCTAssertFalse(try tokens.isLive(digest: digest, at: at(30 * 86400)))
        let listed = try tokens.list()
        XCTAssertEqual(listed.map(\.name), ["month", "forever"])
        XCTAssertEqual(listed[0].expiresAt, at(30 * 86400))
        XCTAssertTrue(listed[0].hasExpired(at: at(30 * 86400)))
        XCTAssertNil(listed[1].expiresAt)
        XCTAssertThrowsError(try tokens.create(name: "month", at: at(40 * 86400)), "an expired token keeps its name until revoked")
    }

    func testACodeDiesAfterTenMinutes() throws {
        let made = try codes.create(tokenName: "phone", tokenLifetime: nil, at: start)
        XCTAssertNil(try codes.exchange(code: made.code, at: at(DeviceCodes.codeLifetime)))
        XCTAssertFalse(try tokens.contains(name: "phone"))
        // The name is free again for a new code.
        XCTAssertNoThrow(try codes.create(tokenName: "phone", tokenLifetime: nil, at: at(DeviceCodes.codeLifetime)))
    }

    func testTenWrongExchangesWithdrawEveryWaitingCodeNineDoNot() throws {
        let kept = try codes.create(tokenName: "kept", tokenLifetime: nil, at: start)
        let withdrawn = try codes.create(tokenName: "withdrawn", tokenLifetime: nil, at: start)
        let wrong = ["AAAA-AAAA", "not a code", "", String(repeating: "Z", count: 9)]
        for attempt in 0..<(DeviceCodes.maximumFailures - 1) {
            XCTAssertNil(try codes.exchange(code: wrong[attempt % wrong.count], at: at(1)))
        }
        XCTAssertNotNil(try codes.exchange(code: kept.code, at: at(2)), "nine wrong tries leave a code waiting")
        XCTAssertNil(try codes.exchange(code: "0000-0000", at: at(3)))
        XCTAssertNil(try codes.exchange(code: withdrawn.code, at: at(4)), "the tenth withdrew it")
        XCTAssertFalse(try tokens.contains(name: "withdrawn"))
        // A code made after the failures starts with none.
        let fresh = try codes.create(tokenName: "fresh", tokenLifetime: nil, at: at(5))
        XCTAssertNotNil(try codes.exchange(code: fresh.code, at: at(6)))
    }

    func testANameTakenByATokenOrAWaitingCodeIsRefused() throws {
        _ = try tokens.create(name: "laptop", at: start)
        XCTAssertThrowsError(try codes.create(tokenName: "laptop", tokenLifetime: nil, at: start)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .duplicate)
        }
        let made = try codes.create(tokenName: "phone", tokenLifetime: nil, at: start)
        XCTAssertThrowsError(try codes.create(tokenName: "phone", tokenLifetime: nil, at: start)) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .duplicate)
        }
        // A token of the code's name made meanwhile: the exchange is refused
        // and the code kept, to be used once that token is revoked.
        _ = try tokens.create(name: "phone", at: at(1))
        XCTAssertThrowsError(try codes.exchange(code: made.code, at: at(2))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .duplicate)
        }
        try tokens.revoke(name: "phone")
        XCTAssertEqual(try codes.exchange(code: made.code, at: at(3))?.token.name, "phone")
        for bad in ["", "a b", String(repeating: "x", count: 65), "tab\there", "é"] {
            XCTAssertThrowsError(try codes.create(tokenName: bad, tokenLifetime: nil, at: start)) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, bad)
            }
        }
        for lifetime in [0, 59, -1, .infinity, .nan, TokenLifetime.maximumSeconds + 1] {
            XCTAssertThrowsError(try codes.create(tokenName: "x", tokenLifetime: lifetime, at: start), "\(lifetime)")
        }
    }

    func testNormalizedReadsCodesAsCrockfordBase32() {
        XCTAssertEqual(DeviceCodes.normalized("k7qm-2xhd").map { String(decoding: $0, as: UTF8.self) }, "K7QM2XHD")
        XCTAssertEqual(DeviceCodes.normalized("OIL0 1111").map { String(decoding: $0, as: UTF8.self) }, "01101111")
        for bad in ["K7QM-2XH", "K7QM-2XHDD", "K7QU-2XHD", "K7QM_2XHD", "K7QM\u{0}2XHD", "Ｋ7QM-2XHD", ""] {
            XCTAssertNil(DeviceCodes.normalized(bad), bad)
        }
    }

    func testTokenLifetimeTakesANumberAndAUnitFromAMinuteToTenYears() throws {
        let cases: [(String, Double)] = [("30d", 30 * 86400), ("12h", 43200), ("2w", 1_209_600), ("90m", 5400),
                                         (" 30 days ", 30 * 86400), ("1 Week", 604_800), ("30일", 30 * 86400),
                                         ("12시간", 43200), ("2주", 1_209_600), ("1m", 60), ("3650d", 3650 * 86400)]
        for (text, seconds) in cases {
            XCTAssertEqual(try TokenLifetime.seconds(in: text), seconds, text)
        }
        for bad in ["30", "", "d", "0d", "-1d", "1.5d", "3651d", "30y", "30s", "30 d d", "9999999999d", "٣d", "30\u{1B}d"] {
            XCTAssertThrowsError(try TokenLifetime.seconds(in: bad), bad) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, bad)
                XCTAssertFalse((error as? MemoError)?.message.en.contains("\u{1B}") ?? true, "no raw control characters")
            }
        }
    }
}
