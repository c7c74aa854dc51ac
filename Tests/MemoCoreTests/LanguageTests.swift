import MemoCore
import XCTest

/// The language order: --lang > $MEMOAPP_LANG >
/// LC_ALL/LC_MESSAGES/LANG starting with `ko` > English.
final class LanguageTests: XCTestCase {
    func testEnglishWhenNothingIsSet() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: [:]), .en)
    }

    func testExplicitChoiceBeatsEverything() {
        let korean = ["MEMOAPP_LANG": "ko", "LC_ALL": "ko_KR.UTF-8", "LANG": "ko_KR.UTF-8"]
        XCTAssertEqual(Language.resolve(explicit: "en", environment: korean), .en)
        let english = ["MEMOAPP_LANG": "en", "LC_ALL": "en_US.UTF-8"]
        XCTAssertEqual(Language.resolve(explicit: "ko", environment: english), .ko)
    }

    func testMemoappLangBeatsTheLocale() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["MEMOAPP_LANG": "ko", "LC_ALL": "en_US.UTF-8"]),
                       .ko)
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["MEMOAPP_LANG": "en", "LANG": "ko_KR.UTF-8"]),
                       .en)
    }

    func testAnUnknownExplicitChoiceFallsThroughToTheEnvironment() {
        XCTAssertEqual(Language.resolve(explicit: "fr", environment: ["MEMOAPP_LANG": "ko"]), .ko)
        XCTAssertEqual(Language.resolve(explicit: "", environment: ["LANG": "ko_KR.UTF-8"]), .ko)
    }

    func testAnUnknownMemoappLangFallsThroughToTheLocale() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["MEMOAPP_LANG": "de", "LANG": "ko_KR"]), .ko)
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["MEMOAPP_LANG": "", "LANG": "ko_KR"]), .ko)
    }

    func testEachLocaleVariableAloneSelectsKorean() {
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            XCTAssertEqual(Language.resolve(explicit: nil, environment: [key: "ko_KR.UTF-8"]), .ko, key)
            XCTAssertEqual(Language.resolve(explicit: nil, environment: [key: "ko"]), .ko, key)
            XCTAssertEqual(Language.resolve(explicit: nil, environment: [key: "en_US.UTF-8"]), .en, key)
        }
    }

    func testLcAllCBeatsAKoreanLang() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LC_ALL": "C", "LANG": "ko_KR.UTF-8"]), .en)
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LC_ALL": "POSIX", "LC_MESSAGES": "ko_KR"]), .en)
    }

    func testLcMessagesBeatsLang() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LC_MESSAGES": "ko_KR", "LANG": "en_US"]), .ko)
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LC_MESSAGES": "en_US", "LANG": "ko_KR"]), .en)
    }

    func testAnEmptyLocaleVariableCountsAsUnset() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LC_ALL": "", "LANG": "ko_KR.UTF-8"]), .ko)
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LC_ALL": "", "LC_MESSAGES": "", "LANG": ""]),
                       .en)
    }

    func testKoElsewhereThanTheStartIsNotKorean() {
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LANG": "en_KO.UTF-8"]), .en)
        XCTAssertEqual(Language.resolve(explicit: nil, environment: ["LANG": "C.ko"]), .en)
    }

    func testRawValuesAreTheFlagWords() {
        XCTAssertEqual(Language.allCases.map(\.rawValue).sorted(), ["en", "ko"])
    }
}
