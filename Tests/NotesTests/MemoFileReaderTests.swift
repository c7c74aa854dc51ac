import MemoCore
import Notes
import XCTest

final class MemoFileReaderTests: XCTestCase {
    private let modified = Timestamp(secondsSince1970: 1_795_957_200)

    private func memo(_ text: String) throws -> ImportedMemo {
        try MemoFileReader.memo(in: Array(text.utf8), source: "note.md", modifiedAt: modified)
    }

    private func failure(_ bytes: [UInt8], file: StaticString = #filePath, line: UInt = #line) -> MemoError? {
        do {
            _ = try MemoFileReader.memo(in: bytes, source: "note.md", modifiedAt: nil)
            XCTFail("no error", file: file, line: line)
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, .badInput, file: file, line: line)
            return error
        } catch {
            XCTFail("unexpected error \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: Text and title

    func testTextIsTheFileAsWrittenAndTitleItsFirstHeading() throws {
        let text = "# 회의록 Meeting\n\n- 다음 주 화요일까지 초안\n- second\n"
        let memo = try memo(text)
        XCTAssertEqual(memo.text, text)
        XCTAssertEqual(memo.title, "회의록 Meeting")
        XCTAssertEqual(memo.createdAt, modified)
        XCTAssertEqual(memo.tags, [])
    }

    func testATXHeadings() {
        XCTAssertEqual(MemoFileReader.title(of: "## Second level ##\ntext"), "Second level")
        XCTAssertEqual(MemoFileReader.title(of: "###### six"), "six")
        XCTAssertEqual(MemoFileReader.title(of: "   # indented three"), "indented three")
        XCTAssertEqual(MemoFileReader.title(of: "# C# and F#"), "C# and F#", "a closing run needs a space before it")
        XCTAssertEqual(MemoFileReader.title(of: "# Title #####   "), "Title")
        XCTAssertEqual(MemoFileReader.title(of: "\n\n  \n# After blank lines\n"), "After blank lines")
        XCTAssertEqual(MemoFileReader.title(of: "#\ttab"), "tab")
    }

    func testLinesThatAreNotATXHeadings() {
        XCTAssertNil(MemoFileReader.title(of: "#hashtag first"))
        XCTAssertNil(MemoFileReader.title(of: "####### seven"))
        XCTAssertNil(MemoFileReader.title(of: "    # code block"))
        XCTAssertNil(MemoFileReader.title(of: "#"), "an empty heading is no title")
        XCTAssertNil(MemoFileReader.title(of: "# ###"))
        XCTAssertNil(MemoFileReader.title(of: "First line\n# Later heading"), "only the first line counts")
    }

    func testSetextHeadings() {
        XCTAssertEqual(MemoFileReader.title(of: "Title\n=====\nbody"), "Title")
        XCTAssertEqual(MemoFileReader.title(of: "  Sub title  \r\n---\r\nbody"), "Sub title")
        XCTAssertEqual(MemoFileReader.title(of: "제목\n=\n"), "제목")
        XCTAssertNil(MemoFileReader.title(of: "Title\n== =\n"))
        XCTAssertNil(MemoFileReader.title(of: "Title\n\n===\n"), "the underline must follow at once")
        XCTAssertNil(MemoFileReader.title(of: "- item\n---\n"), "a list item is not a heading")
        XCTAssertNil(MemoFileReader.title(of: "> quote\n===\n"))
        XCTAssertNil(MemoFileReader.title(of: "    code\n===\n"))
        XCTAssertNil(MemoFileReader.title(of: "---\ntitle: front matter\n---\n"))
    }

    func testFrontMatterIsSkippedWhenLookingForTheHeading() throws {
        let text = "---\ntitle: ignored\ntags: [a, b]\n---\n\n# Real title\nbody"
        let memo = try memo(text)
        XCTAssertEqual(memo.title, "Real title")
        XCTAssertEqual(memo.text, text, "the front matter stays in the text")
        XCTAssertEqual(MemoFileReader.title(of: "---\r\ndate: 2026-11-29\r\n...\r\nTitle\r\n===\r\n"), "Title")
        XCTAssertNil(MemoFileReader.title(of: "---\ntitle: x\n---\nno heading"))
        XCTAssertNil(MemoFileReader.title(of: "---\nnever closed\n# Heading"), "no closing line: not front matter")
        XCTAssertNil(MemoFileReader.title(of: "text\n\n---\nx: y\n---\n# Heading"), "only on the first line")
    }

    func testPlainTextHasNoTitle() throws {
        let memo = try memo("just a note\nwith two lines")
        XCTAssertNil(memo.title)
        XCTAssertEqual(memo.text, "just a note\nwith two lines")
    }

    func testATitleEndsAtAnyLineEnd() {
        XCTAssertEqual(MemoFileReader.title(of: "# Title\rbody\rmore"), "Title")
        XCTAssertEqual(MemoFileReader.title(of: "Title\r===\rbody"), "Title")
        XCTAssertEqual(MemoFileReader.title(of: "# Title\u{2028}not the title"), "Title")
    }

    func testTextKeepsCRLFNULAndNoFinalLineBreak() throws {
        let text = "# T\r\nline\0with NUL\r\nlast"
        XCTAssertEqual(try memo(text).text, text)
        XCTAssertEqual(try memo(text).title, "T")
    }

    func testByteOrderMarkIsDropped() throws {
        let memo = try MemoFileReader.memo(in: [0xEF, 0xBB, 0xBF] + Array("# Title\nx".utf8), source: "a.md",
                                           modifiedAt: nil)
        XCTAssertEqual(memo.text, "# Title\nx")
        XCTAssertEqual(memo.title, "Title")
        XCTAssertNil(memo.createdAt)
    }

    // MARK: Uids

    func testUidDependsOnTheTextOnly() throws {
        let first = try memo("# Same\ntext")
        XCTAssertEqual(try MemoFileReader.memo(in: Array("# Same\ntext".utf8), source: "other.md", modifiedAt: nil).uid,
                       first.uid)
        XCTAssertNotEqual(try memo("# Same\ntext\n").uid, first.uid)
        XCTAssertEqual(first.uid.count, 36)
        XCTAssertNotEqual(first.uid, try TodoTxtReader(calendar: seoul).todos(in: Array("# Same\ntext".utf8),
                                                                                source: "t").first?.uid)
    }

    // MARK: Bad files

    func testInvalidUTF8NamesTheFileAndLine() {
        let error = failure(Array("# ok\nfine\n".utf8) + [0xC3, 0x28] + Array("\nmore".utf8))
        XCTAssertEqual(error?.message.en, "note.md:3: not UTF-8 text")
        XCTAssertEqual(error?.message.ko, "note.md:3: UTF-8 텍스트가 아닙니다")
        XCTAssertEqual(failure([0xFF])?.message.en, "note.md:1: not UTF-8 text")
    }

    func testEmptyFilesAreRefused() {
        XCTAssertEqual(failure([])?.message.en, "note.md: the file is empty")
        XCTAssertEqual(failure(Array(" \n\t\r\n".utf8))?.message.ko, "note.md: 파일이 비어 있습니다")
        XCTAssertNotNil(failure([0xEF, 0xBB, 0xBF, 0x0A]))
        XCTAssertNotNil(failure([0, 0x0A]))
    }
}
