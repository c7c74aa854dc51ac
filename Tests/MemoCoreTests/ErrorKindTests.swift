import MemoCore
import XCTest

/// The stable code words of every error kind, and what a MemoError carries.
final class ErrorKindTests: XCTestCase {
    /// The contract's words, written out independently of the implementation.
    private let table: [(ErrorKind, String)] = [
        (.internalFailure, "internal"),
        (.onboardingRequired, "onboarding_required"),
        (.notFound, "not_found"),
        (.invalidState, "invalid_state"),
        (.duplicate, "duplicate"),
        (.usage, "usage"),
        (.badInput, "bad_input"),
        (.noInput, "no_input"),
        (.storage, "storage"),
        (.unauthorized, "unauthorized"),
        (.tooLarge, "too_large"),
        (.interrupted, "interrupted"),
        (.unavailable, "unavailable"),
    ]

    func testEveryKindHasItsCodeWord() {
        for (kind, code) in table {
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

    func testMemoErrorKeepsKindAndBothMessages() {
        let error = MemoError(.notFound, en: "no to-do 7", ko: "할 일 7이 없습니다")
        XCTAssertEqual(error.kind, .notFound)
        XCTAssertEqual(error.message.en, "no to-do 7")
        XCTAssertEqual(error.message.ko, "할 일 7이 없습니다")
        XCTAssertNil(error.hint)
        XCTAssertEqual(error.description, "not_found: no to-do 7")
    }

    func testMemoErrorFromLocalizedIsTheSameAndKeepsItsHint() {
        let message = Localized(en: "busy", ko: "사용 중")
        let error = MemoError(.invalidState, message, hint: .force)
        XCTAssertEqual(error.message, message)
        XCTAssertEqual(error.kind, .invalidState)
        XCTAssertEqual(error.hint, .force)
    }
}
