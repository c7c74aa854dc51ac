import MemoCore
@testable import Notes
import XCTest

/// `MemoMarkdown`: file names safe for any title, and front matter that
/// reads back exactly what was written, whatever the memo holds.
final class MemoMarkdownTests: XCTestCase {
    private let created = Timestamp(secondsSince1970: 1_795_958_644.1234567)
    private let updated = Timestamp(secondsSince1970: 1_795_958_700.25)

    private func memo(_ text: String, title: String? = "t", tags: [String] = [], pinned: Bool = false) -> Memo {
        Memo(id: 7, uid: "0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77", title: title, text: text, tags: tags, isPinned: pinned,
             createdAt: created, updatedAt: updated)
    }

    private func read(_ document: String) throws -> ImportedMemo? {
        try MemoMarkdown.memo(in: Array(document.utf8)[...], source: "m.md")
    }

    func testSlugsAreSafeForAnyTitle() {
        XCTAssertEqual(MemoMarkdown.slug("Weekly Meeting: Notes!"), "weekly-meeting-notes")
        XCTAssertEqual(MemoMarkdown.slug("주간 회의 / 초안"), "주간-회의-초안")
        XCTAssertEqual(MemoMarkdown.slug("../../etc/passwd"), "etc-passwd")
        XCTAssertEqual(MemoMarkdown.slug(".hidden"), "hidden")
        XCTAssertEqual(MemoMarkdown.slug("a\u{0}b\u{1B}[31mc\td\ne"), "a-b-31mc-d-e")
        XCTAssertEqual(MemoMarkdown.slug("left\u{202E}right"), "left-right", "a direction override is no letter")
        XCTAssertEqual(MemoMarkdown.slug("e\u{301}té"), "e\u{301}té", "a letter keeps its marks")
        XCTAssertEqual(MemoMarkdown.slug("🇰🇷👩‍👩‍👧 --- ..."), "memo")
        XCTAssertEqual(MemoMarkdown.slug(""), "memo")
        XCTAssertEqual(MemoMarkdown.slug("A_B-C"), "a-b-c")
        let long = MemoMarkdown.slug(String(repeating: "한", count: 500))
        XCTAssertEqual(long.count, 40, "120 bytes of three-byte Hangul")
        XCTAssertEqual(MemoMarkdown.slug(String(repeating: "ab ", count: 100)).count, MemoMarkdown.slugLength - 1,
                       "cut at 60 characters, without a dash at the end")
        XCTAssertEqual(MemoMarkdown.fileName(id: 12, title: nil, preview: "first line"), "12-first-line.md")
        for title in ["a/b", "..", ".", "-", "\u{0}", String(repeating: "/", count: 300)] {
            let name = MemoMarkdown.fileName(id: 1, title: title, preview: "")
            XCTAssertFalse(name.contains("/"))
            XCTAssertTrue(name.hasPrefix("1-"))
            XCTAssertLessThan(name.utf8.count, 255)
        }
    }

    func testTheDocumentReadsBackExactly() throws {
        let texts = ["plain", "no final newline", "ends with one\n", "\n\nleading blank lines\n\n\n",
                     "---\nlooks like front matter\n---\n", "CRLF\r\nlines\r\n", "한국어 메모\n두 번째 줄",
                     "NUL\0inside", "  \t spaces\t  ", "---", "...\n---\nuid: not-this-one\n"]
        let titles: [String?] = [nil, "주간 회의", "quote \" backslash \\ tab\t", "\u{1}\u{7F}\u{200B}", "null", "'single'", ""]
        for text in texts {
            for title in titles {
                let original = memo(text, title: title, tags: ["a", "태그", "q\"uote", "x:y"], pinned: title == nil)
                let document = MemoMarkdown.document(of: original)
                let back = try XCTUnwrap(try read(document), "\(text.debugDescription) \(title.debugDescription)")
                XCTAssertEqual(Array(back.text.utf8), Array(text.utf8))
                XCTAssertEqual(back.title, title)
                XCTAssertEqual(back.tags, original.tags)
                XCTAssertEqual(back.uid, original.uid)
                XCTAssertEqual(back.createdAt?.secondsSince1970, created.secondsSince1970)
                XCTAssertEqual(back.updatedAt?.secondsSince1970, updated.secondsSince1970)
                XCTAssertEqual(back.isPinned, original.isPinned)
            }
        }
    }

    func testAFileWithoutAUIDIsNotMemoapps() throws {
        XCTAssertNil(try read("# Title\n\ntext"))
        XCTAssertNil(try read("---\ntitle: Jekyll post\nlayout: post\n---\ntext"), "no uid: someone else's front matter")
        XCTAssertNil(try read("---\nuid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\ntext with no closing line"))
        XCTAssertNil(try read("---\ntags:\n  - a\nuid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\n---\ntext"),
                     "a block memoapp does not write (a YAML block list) is left to the text")
        XCTAssertNil(try read(" ---\nuid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\n---\ntext"))
    }

    func testHandWrittenValuesInYAMLsOtherStylesAreRead() throws {
        let memo = try XCTUnwrap(try read("""
            ---\r
            title: 'it''s mine'\r
            tags: [home, "#work"]\r
            created: "2026-11-29T13:24:04Z"\r
            uid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\r
            ---\r
            body\r\n
            """))
        XCTAssertEqual(memo.title, "it's mine")
        XCTAssertEqual(memo.tags, ["home", "work"])
        for (written, tags) in [("[]", []), ("[ ]", []), ("[a,b]", ["a", "b"]), ("['x''y', \"z\"]", ["x'y", "z"])] {
            let document = "---\ntags: \(written)\ncreated: 2026-11-29T13:24:04Z\nuid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\n---\nx"
            XCTAssertEqual(try read(document)?.tags, tags, written)
        }
        XCTAssertEqual(memo.updatedAt, memo.createdAt, "no updated: created")
        XCTAssertFalse(memo.isPinned)
        XCTAssertEqual(memo.text, "body\r\n")
        XCTAssertNil(try XCTUnwrap(try read("---\ntitle: ~\ncreated: 2026-11-29T13:24:04Z\nuid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77\n---\nx"))
            .title)
    }

    func testMalformedMemoappFrontMatterIsBadInputNamingTheLine() {
        let uid = "uid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77"
        let created = "created: 2026-11-29T13:24:04Z"
        let cases: [(String, String)] = [
            ("---\n\(created)\n\(uid)\ncolour: red\n---\nx", "m.md:4: unknown front matter key 'colour'"),
            ("---\n\(created)\n\(uid)\n\(uid)\n---\nx", "m.md:4: 'uid' is given twice"),
            ("---\ncreated: yesterday\n\(uid)\n---\nx", "m.md:2: created: 'yesterday' is not an RFC 3339 time"),
            ("---\n\(created)\nuid: 42\n---\nx", "m.md:3: uid: "),
            ("---\n\(created)\npinned: yes\n\(uid)\n---\nx", "m.md:3: pinned: 'yes' is not true or false"),
            ("---\n\(created)\ntags: [a b]\n\(uid)\n---\nx", "m.md:3: tags: a tag is one word"),
            ("---\n\(created)\ntags: [\"a\", 1]\n\(uid)\n---\nx", "m.md:3: tags: a tag is a string"),
            ("---\n\(created)\ntags: a\n\(uid)\n---\nx", "m.md:3: tags: 'a' is not a list"),
            ("---\n\(created)\ntitle: \"unclosed\n\(uid)\n---\nx", "m.md:3: title: "),
            ("---\n\(created)\ntitle: \"two\\nlines\"\n\(uid)\n---\nx", "m.md:3: title: a memo's title must be one line"),
            ("---\n\(uid)\n---\nx", "m.md:1: the front matter has a uid but no 'created' time"),
            ("---\n\(created)\n\(uid)\n---\n \n\t", "m.md: the memo's text after the front matter is empty"),
            ("---\n\(created)\n\(uid)\n---\n", "m.md: the memo's text after the front matter is empty"),
        ]
        for (document, message) in cases {
            XCTAssertThrowsError(try read(document), document.debugDescription) { error in
                let failure = error as? MemoError
                XCTAssertEqual(failure?.kind, .badInput, document.debugDescription)
                XCTAssertTrue(failure?.message.en.hasPrefix(message) ?? false, "\(failure?.message.en ?? "") ≠ \(message)")
            }
        }
    }

    func testTheWrittenFormIsStable() {
        let document = MemoMarkdown.document(of: memo("text", title: "주간 \"회의\"", tags: ["work", "한글"], pinned: true))
        XCTAssertEqual(document, """
            ---
            title: "주간 \\"회의\\""
            tags: ["work", "한글"]
            created: 2026-11-29T13:24:04.1234567Z
            updated: 2026-11-29T13:25:00.25Z
            pinned: true
            uid: 0b5e6a4e-8d0c-4f7e-9a53-3f1c1d2b6a77
            ---
            text
            """)
    }
}
