import Foundation
import MemoCore
@testable import Onboarding
import SQLite
import TestSupport
import XCTest

final class OnboardingArchiveTests: XCTestCase {
    private func makeConnection(_ directory: TemporaryDirectory, _ name: String = "memoapp.db") throws -> Connection {
        let connection = try Connection(path: directory.appending(name))
        var migrator = Migrator()
        migrator.register(OnboardingStore.migrations)
        try migrator.apply(to: connection)
        return connection
    }

    private func reader(_ json: JSON) throws -> JSONReader {
        JSONReader(try JSON.parse(Array(json.serialized.utf8)), path: JSONPath.root.appending(key: "onboarding"),
                   source: "export.json")
    }

    func testACompletedStateSurvivesExportAndRestore() throws {
        let directory = TemporaryDirectory()
        let source = try makeConnection(directory)
        let store = OnboardingStore(connection: source)
        try store.apply(.goTo(3), at: Timestamp(secondsSince1970: 1))
        try store.apply(.skip, at: Timestamp(secondsSince1970: 1_795_958_644.25))
        let exported = try OnboardingArchive.export(from: source)
        XCTAssertEqual(exported, .object([("current_page", .int(3)), ("completed_at", .string("2026-11-29T13:24:04.25Z"))]))

        let target = try makeConnection(directory, "other.db")
        try OnboardingStore(connection: target).apply(.skip, at: Timestamp(secondsSince1970: 99))
        let state = try OnboardingArchive.state(from: try reader(exported))
        XCTAssertTrue(try target.writeTransaction { try OnboardingArchive.restore(state, into: target) })
        XCTAssertEqual(try OnboardingStore(connection: target).state(), try store.state())
    }

    func testAnUnfinishedStateDoesNotCloseTheGate() throws {
        let directory = TemporaryDirectory()
        let target = try makeConnection(directory)
        try OnboardingStore(connection: target).apply(.skip, at: Timestamp(secondsSince1970: 99))
        let state = try OnboardingArchive.state(from: try reader(.object([("current_page", .int(2)),
                                                                          ("completed_at", .null)])))
        XCTAssertFalse(state.isCompleted)
        XCTAssertFalse(try target.writeTransaction { try OnboardingArchive.restore(state, into: target) })
        XCTAssertTrue(try OnboardingStore(connection: target).state().isCompleted)
    }

    func testAPageOutsideTheOnboardingIsRefused() throws {
        for page in [0, 5] {
            XCTAssertThrowsError(try OnboardingArchive.state(from: try reader(.object([
                ("current_page", .int(Int64(page))), ("completed_at", .null),
            ])))) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .badInput)
                XCTAssertEqual((error as? MemoError)?.message.en,
                               "export.json: $.onboarding.current_page: \(page) is outside 1...4")
            }
        }
    }
}
