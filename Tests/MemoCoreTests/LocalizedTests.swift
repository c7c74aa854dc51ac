import MemoCore
import XCTest

final class LocalizedTests: XCTestCase {
    func testTextPicksTheRequestedLanguage() {
        let text = Localized(en: "Today's to-dos", ko: "오늘의 할일")
        XCTAssertEqual(text.text(in: .en), "Today's to-dos")
        XCTAssertEqual(text.text(in: .ko), "오늘의 할일")
    }

    func testVerbatimIsTheSameInBothLanguages() {
        let text = Localized(verbatim: "memoapp 0.1.0")
        XCTAssertEqual(text.en, "memoapp 0.1.0")
        XCTAssertEqual(text.ko, "memoapp 0.1.0")
        for language in Language.allCases {
            XCTAssertEqual(text.text(in: language), "memoapp 0.1.0")
        }
    }

    func testEqualityComparesBothLanguages() {
        XCTAssertEqual(Localized(en: "a", ko: "가"), Localized(en: "a", ko: "가"))
        XCTAssertNotEqual(Localized(en: "a", ko: "가"), Localized(en: "a", ko: "나"))
        XCTAssertNotEqual(Localized(en: "a", ko: "가"), Localized(en: "b", ko: "가"))
    }
}
