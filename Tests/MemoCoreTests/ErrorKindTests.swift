import MemoCore
import XCTest

/// The exit-code table of CONVENTIONS.md, checked kind by kind.
final class ErrorKindTests: XCTestCase {
    /// The contract's table, written out independently of the implementation.
    private let table: [(ErrorKind, Int32, String)] = [
        (.internalFailure, 1, "internal"),
        (.onboardingRequired, 3, "onboarding_required"),
        (.notFound, 4, "not_found"),
        (.invalidState, 5, "invalid_state"),
        (.duplicate, 5, "duplicate"),
        (.usage, 64, "usage"),
        (.badInput, 65, "bad_input"),
        (.noInput, 66, "no_input"),
        (.storage, 74, "storage"),
    ]

    func testEveryKindHasItsExitCodeAndCodeWord() {
        for (kind, exitCode, code) in table {
            XCTAssertEqual(kind.exitCode, exitCode, "\(kind)")
            XCTAssertEqual(kind.code, code, "\(kind)")
        }
    }

    func testTheTableCoversEveryKind() {
        XCTAssertEqual(Set(table.map(\.0.code)), Set(ErrorKind.allCases.map(\.code)))
        XCTAssertEqual(ErrorKind.allCases.count, table.count)
    }

    func testCodeWordsAreUniqueSnakeCaseEnglish() {
        let codes = ErrorKind.allCases.map(\.code)
        XCTAssertEqual(Set(codes).count, codes.count)
        for code in codes {
            XCTAssertTrue(code.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }, code)
        }
    }

    func testNoKindExitsWithSuccessOrAShellReservedCode() {
        for kind in ErrorKind.allCases {
            XCTAssertNotEqual(kind.exitCode, 0, "\(kind)")
            XCTAssertNotEqual(kind.exitCode, 2, "\(kind)")
            XCTAssertLessThan(kind.exitCode, 126, "\(kind)")
        }
    }

    func testMemoErrorKeepsKindAndBothMessages() {
        let error = MemoError(.notFound, en: "no to-do 7", ko: "할일 7이 없습니다")
        XCTAssertEqual(error.kind, .notFound)
        XCTAssertEqual(error.message.en, "no to-do 7")
        XCTAssertEqual(error.message.ko, "할일 7이 없습니다")
        XCTAssertEqual(error.description, "not_found: no to-do 7")
    }

    func testMemoErrorFromLocalizedIsTheSame() {
        let message = Localized(en: "busy", ko: "사용 중")
        let error = MemoError(.invalidState, message)
        XCTAssertEqual(error.message, message)
        XCTAssertEqual(error.kind.exitCode, 5)
    }
}
