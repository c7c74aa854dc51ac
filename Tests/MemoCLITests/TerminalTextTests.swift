@testable import MemoCLI
import XCTest

/// The one rule for text a person reads on a terminal: control characters
/// are shown, never obeyed, and only memoapp's own codes reach the terminal.
final class TerminalTextTests: XCTestCase {
    func testC0ControlsShowAsControlPictures() {
        XCTAssertEqual(TerminalText.visible("a\u{1B}[2Jb\u{7}c\rd\u{8}e\0", keepingLineBreaks: true),
                       "a␛[2Jb␇c␍d␈e␀")
        XCTAssertEqual(TerminalText.visible("del\u{7F}", keepingLineBreaks: true), "del␡")
    }

    func testLineBreaksAndTabsAreKeptOnlyInTextThatSpansLines() {
        XCTAssertEqual(TerminalText.visible("one\ntwo\tthree", keepingLineBreaks: true), "one\ntwo\tthree")
        XCTAssertEqual(TerminalText.visible("one\ntwo\tthree", keepingLineBreaks: false), "one␊two␉three")
    }

    func testC1ControlsAndBidiOverridesShowAsCodePoints() {
        XCTAssertEqual(TerminalText.visible("\u{9B}2J \u{85}", keepingLineBreaks: true), "<U+009B>2J <U+0085>")
        XCTAssertEqual(TerminalText.visible("evil\u{202E}txt.exe\u{202C}", keepingLineBreaks: true),
                       "evil<U+202E>txt.exe<U+202C>")
        for value: UInt32 in [0x202A, 0x202B, 0x202D, 0x2066, 0x2067, 0x2068, 0x2069] {
            let text = String(Character(Unicode.Scalar(value)!))
            XCTAssertTrue(TerminalText.visible(text, keepingLineBreaks: true).hasPrefix("<U+"), "\(value)")
        }
    }

    func testOrdinaryTextIsKeptAsItIs() {
        let text = "가나다 abc שלום 👩‍👩‍👧 e\u{301} a\u{200B}b \u{200F}"
        XCTAssertEqual(TerminalText.visible(text, keepingLineBreaks: false), text)
    }

    func testWordsCannotForgeATerminalCode() {
        let forged = TerminalText("\u{1B}[31mred\u{1B}[0m") + TerminalText(line: "\u{1B}]0;title\u{7}")
        XCTAssertFalse(forged.rendered.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                       forged.rendered)
    }

    func testStylingReachesTheTerminalAroundVisibleWords() {
        let style = TextStyle(isEnabled: true)
        let text = style.bold(TerminalText(line: "a\u{1B}b"))
        XCTAssertEqual(text.rendered, "\u{1B}[1ma␛b\u{1B}[0m")
        XCTAssertEqual(text.plain, "a␛b")
        XCTAssertEqual(TextStyle(isEnabled: false).bold("x").rendered, "x")
    }

    func testInterpolationKeepsStylesAndShowsLines() {
        let style = TextStyle(isEnabled: true)
        let title = "two\nlines"
        let text: TerminalText = "\(3) \(line: title) \(style.dim("d"))"
        XCTAssertEqual(text.rendered, "3 two␊lines \u{1B}[2md\u{1B}[0m")
    }

    func testDisplayWidthCountsTheVisibleForm() {
        XCTAssertEqual(TerminalText(line: "a\u{1B}").displayWidth, 2)
        XCTAssertEqual(TerminalText("한글").displayWidth, 4)
        XCTAssertEqual(TextStyle(isEnabled: true).red("ab").displayWidth, 2)
    }

    func testTrimmingLineBreaksKeepsTheCodes() {
        let style = TextStyle(isEnabled: true)
        let text = TerminalText("\n\n") + style.bold("x") + "\n"
        XCTAssertEqual(text.trimmingLineBreaks.rendered, "\u{1B}[1mx\u{1B}[0m")
    }

    /// The byte scan that decides whether anything needs showing must agree
    /// with the rule on scalars for every scalar up to U+FFFF and a sample
    /// above, alone and between neighbours whose bytes resemble a pattern's
    /// (`Â` is C3 82, `…` E2 80 A6, U+2000 E2 80 80).
    func testTheByteScanAgreesWithTheRuleOnScalars() {
        let neighbours = ["", "a", "한", "\u{C2}", "\u{2026}", "\u{2000}", "😀"]
        let samples = (0...0xFFFF).compactMap(Unicode.Scalar.init) + [Unicode.Scalar(0x1F600)!, Unicode.Scalar(0x10FFFF)!]
        for keepingLineBreaks in [true, false] {
            for scalar in samples {
                let expected = TerminalText.needsShowing(scalar, keepingLineBreaks: keepingLineBreaks)
                for before in neighbours {
                    let text = before + String(Character(scalar)) + before
                    let found = TerminalText.holdsSomethingToShow(text, keepingLineBreaks: keepingLineBreaks)
                    if found != expected {
                        XCTFail("U+\(String(scalar.value, radix: 16)) between \(before.unicodeScalars.map(\.value)): \(found)")
                        return
                    }
                }
            }
        }
    }

    func testRenderingIntoBytesIsTheRenderedText() {
        let style = TextStyle(isEnabled: true)
        let text: TerminalText = "\(line: "제목\u{1B}[2J\u{202E}") \(style.red("!")) done\n"
        var bytes: [UInt8] = [0x3E]
        text.render(into: &bytes)
        XCTAssertEqual(bytes, [0x3E] + Array(text.rendered.utf8))
    }
}
