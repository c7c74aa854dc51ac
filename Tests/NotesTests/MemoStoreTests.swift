import MemoCore
@testable import Notes
import SQLite
import XCTest

final class MemoStoreTests: NotesTestCase {
    func testTextComesBackByteForByte() throws {
        let store = makeMemoStore()
        let texts = [
            "대한민국 만세 🇰🇷👩‍👩‍👧",
            "line one\nline two\r\nthree\n\n",
            "NUL\0inside\0\0and at the end\0",
            "'single' \"double\" `back` \\ %_",
            "'); DROP TABLE memos; -- SELECT * FROM memos WHERE 1=1",
            "  leading and trailing spaces  ",
            "e\u{301} vs é (not normalized)",
            String(repeating: "한글과 English 섞인 문장입니다. ", count: 40_000),
        ]
        for text in texts {
            let added = try store.add(NewMemo(text: text))
            let read = try store.memo(id: added.id)
            XCTAssertEqual(Array(read.text.utf8), Array(text.utf8), "text \(added.id) changed")
            XCTAssertEqual(read, added)
        }
        XCTAssertGreaterThan(texts.last!.utf8.count, 1_000_000)
        assertSearchIndexesIntact()
    }

    func testTitleTagsAndPinAreStored() throws {
        let store = makeMemoStore()
        let memo = try store.add(NewMemo(text: "body", title: "제목", tags: ["#일", "work"], isPinned: true))
        XCTAssertEqual(try store.memo(id: memo.id).title, "제목")
        XCTAssertEqual(try store.memo(id: memo.id).tags, ["일", "work"])
        XCTAssertTrue(try store.memo(id: memo.id).isPinned)
        XCTAssertNil(try store.add(NewMemo(text: "x", title: "  ")).title, "a blank title is no title")
    }

    func testEmptyTextIsBadInputAndAddsNothing() throws {
        let store = makeMemoStore()
        for text in ["", " ", "\n\n", "\t \r\n", "\0"] {
            XCTAssertEqual(memoError { _ = try store.add(NewMemo(text: text)) }?.kind, .badInput)
        }
        XCTAssertEqual(try store.count(), 0)
    }

    func testListsPinnedFirstThenNewestWithAOneLinePreview() throws {
        let store = makeMemoStore()
        let old = try store.add(NewMemo(text: "\n\n  첫 줄입니다\n둘째 줄"))
        clock.advance(10)
        let pinned = try store.add(NewMemo(text: "pinned", isPinned: true))
        clock.advance(10)
        let newest = try store.add(NewMemo(text: String(repeating: "가", count: 100), tags: ["t"]))
        let list = try store.summaries()
        XCTAssertEqual(list.map(\.id), [pinned.id, newest.id, old.id])
        XCTAssertEqual(list[2].preview, "  첫 줄입니다")
        XCTAssertEqual(list[1].preview, String(repeating: "가", count: 60) + "…")
        XCTAssertEqual(try store.summaries(pinnedOnly: true).map(\.id), [pinned.id])
        XCTAssertEqual(try store.summaries(tag: "T").map(\.id), [newest.id])
        XCTAssertEqual(try store.summaries(limit: 1).map(\.id), [pinned.id])
    }

    func testPreviewsOfLongMemosDoNotNeedTheWholeText() throws {
        let store = makeMemoStore()
        _ = try store.add(NewMemo(text: String(repeating: "x", count: 2_000_000)))
        XCTAssertEqual(try store.summaries()[0].preview.count, 61)
    }

    func testAnEditMadeFromAnOlderTextIsRefusedAndChangesNothing() throws {
        let store = makeMemoStore()
        let seen = try store.add(NewMemo(text: "shown in the editor", title: "t"))
        _ = try store.edit(id: seen.id, text: "changed meanwhile")
        XCTAssertEqual(memoError { _ = try store.edit(id: seen.id, text: "mine", madeFrom: seen) }?.kind, .invalidState)
        XCTAssertEqual(try store.memo(id: seen.id).text, "changed meanwhile")
        let retitled = try store.edit(id: seen.id, title: "new title")
        var oldTitle = retitled
        oldTitle.title = "t"
        XCTAssertEqual(memoError { _ = try store.edit(id: seen.id, text: "mine", madeFrom: oldTitle) }?.kind,
                       .invalidState, "a title changed meanwhile counts too")
        // Pinning changes neither: no clash.
        _ = try store.setPinned(true, id: seen.id)
        XCTAssertEqual(try store.edit(id: seen.id, text: "mine", madeFrom: retitled).text, "mine")
    }

    func testEditReplacesTextAndTitle() throws {
        let store = makeMemoStore()
        let memo = try store.add(NewMemo(text: "old text", title: "old title"))
        clock.advance(3)
        let edited = try store.edit(id: memo.id, text: "새 내용\n")
        XCTAssertEqual(edited.text, "새 내용\n")
        XCTAssertEqual(edited.title, "old title")
        XCTAssertEqual(edited.updatedAt, clock.now())
        XCTAssertEqual(try store.edit(id: memo.id, title: "").title, nil)
        XCTAssertEqual(try store.memo(id: memo.id).text, "새 내용\n")
        XCTAssertEqual(memoError { _ = try store.edit(id: memo.id, text: "  ") }?.kind, .badInput)
        XCTAssertEqual(try store.memo(id: memo.id).text, "새 내용\n")
        XCTAssertEqual(memoError { _ = try store.edit(id: 99, text: "x") }?.kind, .notFound)
        assertSearchIndexesIntact()
    }

    func testPinAndUnpin() throws {
        let store = makeMemoStore()
        let memo = try store.add(NewMemo(text: "x"))
        XCTAssertTrue(try store.setPinned(true, id: memo.id).isPinned)
        XCTAssertTrue(try store.setPinned(true, id: memo.id).isPinned)
        XCTAssertFalse(try store.setPinned(false, id: memo.id).isPinned)
        XCTAssertEqual(memoError { _ = try store.setPinned(true, id: 5) }?.message.en, "no memo with id 5")
    }

    func testRemoveIsAllOrNothingAndIDsAreNotReused() throws {
        let store = makeMemoStore()
        let a = try store.add(NewMemo(text: "a", tags: ["x"])).id
        let b = try store.add(NewMemo(text: "b")).id
        let error = memoError { try store.remove(ids: [a, 404]) }
        XCTAssertEqual(error?.kind, .notFound)
        XCTAssertEqual(error?.message.ko, "id 404인 메모가 없습니다")
        XCTAssertEqual(try store.count(), 2)
        XCTAssertEqual(try store.remove(ids: [b, a, b]).map(\.id), [b, a])
        XCTAssertEqual(try store.count(), 0)
        XCTAssertEqual(try connection.queryFirst("SELECT count(*) FROM memo_tags") { $0.int(0) }, 0)
        XCTAssertEqual(try store.add(NewMemo(text: "c")).id, 3)
        assertSearchIndexesIntact()
    }
}
