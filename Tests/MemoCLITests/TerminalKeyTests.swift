@testable import MemoCLI
import XCTest

/// How the pager decodes the bytes one key press sends.
final class TerminalKeyTests: XCTestCase {
    func testArrowsInBothCursorModes() {
        XCTAssertEqual(TerminalKey(bytes: [0x1B, 0x5B, 0x43]), .rightArrow)
        XCTAssertEqual(TerminalKey(bytes: [0x1B, 0x4F, 0x43]), .rightArrow)
        XCTAssertEqual(TerminalKey(bytes: [0x1B, 0x5B, 0x44]), .leftArrow)
        XCTAssertEqual(TerminalKey(bytes: [0x1B, 0x4F, 0x44]), .leftArrow)
    }

    func testControlKeys() {
        XCTAssertEqual(TerminalKey(bytes: [0x0D]), .enter)
        XCTAssertEqual(TerminalKey(bytes: [0x0A]), .enter)
        XCTAssertEqual(TerminalKey(bytes: [0x03]), .interrupt, "Ctrl-C arrives as a byte in raw mode")
        XCTAssertEqual(TerminalKey(bytes: [0x04]), .endOfInput, "Ctrl-D")
        XCTAssertEqual(TerminalKey(bytes: [0x1B]), .escape)
    }

    func testHomeEndPageUpPageDownAsXtermAndTheVT220SendThem() {
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[H".utf8)), .home)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}OH".utf8)), .home)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[1~".utf8)), .home)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[F".utf8)), .end)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[4~".utf8)), .end)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[5~".utf8)), .pageUp)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[6~".utf8)), .pageDown)
        XCTAssertEqual(TerminalKey(bytes: Array("\u{1B}[3~".utf8)), .other, "Delete")
        XCTAssertEqual(TerminalKey(bytes: [0x1A]), .suspend, "Ctrl-Z arrives as a byte in raw mode")
    }

    func testSequencesWithDigitsAreSplitWhole() {
        XCTAssertEqual(TerminalKey.keys(in: Array("\u{1B}[6~n\u{1B}[5~".utf8)), [.pageDown, .character("n"), .pageUp])
        XCTAssertEqual(TerminalKey.keys(in: Array("\u{1B}[15~q".utf8)), [.other, .character("q")], "F5")
        XCTAssertEqual(TerminalKey.keys(in: Array("\u{1B}[5".utf8)), [.escape, .character("["), .character("5")],
                       "a cut-off sequence is its bytes")
    }

    func testPrintableCharactersIncludingMultibyteOnes() {
        XCTAssertEqual(TerminalKey(bytes: Array("n".utf8)), .character("n"))
        XCTAssertEqual(TerminalKey(bytes: Array(" ".utf8)), .character(" "))
        XCTAssertEqual(TerminalKey(bytes: Array("3".utf8)), .character("3"))
        XCTAssertEqual(TerminalKey(bytes: Array("가".utf8)), .character("가"))
        XCTAssertEqual(TerminalKey(bytes: Array("👩‍💻".utf8)), .character("👩‍💻"))
    }

    func testAnythingElseIsOther() {
        XCTAssertEqual(TerminalKey(bytes: [0x1B, 0x5B, 0x41]), .other, "up arrow")
        XCTAssertEqual(TerminalKey(bytes: [0xFF]), .other, "not UTF-8")
        XCTAssertEqual(TerminalKey(bytes: [0xEA, 0xB0]), .other, "a cut-off UTF-8 sequence")
        XCTAssertEqual(TerminalKey(bytes: Array("nn".utf8)), .other, "two keys in one read")
        XCTAssertEqual(TerminalKey(bytes: []), .other)
    }

    func testOneReadHoldingSeveralKeysGivesEachKey() {
        XCTAssertEqual(TerminalKey.keys(in: Array("nn".utf8)), [.character("n"), .character("n")])
        XCTAssertEqual(TerminalKey.keys(in: [0x34, 0x0D]), [.character("4"), .enter], "4 then Enter")
        XCTAssertEqual(TerminalKey.keys(in: [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x71]),
                       [.rightArrow, .leftArrow, .character("q")])
        XCTAssertEqual(TerminalKey.keys(in: Array("가s".utf8)), [.character("가"), .character("s")])
        XCTAssertEqual(TerminalKey.keys(in: [0x1B]), [.escape])
        XCTAssertEqual(TerminalKey.keys(in: [0x03, 0x6E]), [.interrupt, .character("n")])
        XCTAssertEqual(TerminalKey.keys(in: [0xEA, 0xB0]), [.other], "a cut-off UTF-8 sequence")
        XCTAssertEqual(TerminalKey.keys(in: []), [])
    }
}
