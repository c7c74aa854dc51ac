import MemoCore
@testable import Notes
import SQLite
import XCTest

/// `MemoStore.edit(tags:)` and `TagChanges`: tags change after a memo is
/// written, by the same rules as a to-do's, and the tag filter follows.
final class MemoTagEditTests: NotesTestCase {
    func testTagsAreAddedAndRemovedAndTheFilterFollows() throws {
        let store = makeMemoStore()
        let memo = try store.add(NewMemo(text: "장보기", tags: ["home", "Errand"]))
        clock.advance(60)
        let edited = try store.edit(id: memo.id, tags: TagChanges(added: ["#work", "HOME"], removed: ["errand"]))
        XCTAssertEqual(edited.tags, ["home", "work"], "removal ignores case; a tag present in another case is not added twice")
        XCTAssertEqual(edited.updatedAt, clock.now())
        XCTAssertEqual(try store.memo(id: memo.id), edited)
        XCTAssertEqual(try store.summaries(tag: "work").map(\.id), [memo.id])
        XCTAssertEqual(try store.summaries(tag: "errand").map(\.id), [])
        XCTAssertEqual(edited.text, "장보기", "the text is kept")
    }

    func testAWholeNewListReplacesTheTags() throws {
        let store = makeMemoStore()
        let memo = try store.add(NewMemo(text: "x", tags: ["a", "b"]))
        XCTAssertEqual(try store.edit(id: memo.id, tags: TagChanges(replacement: ["c", "#a", "C"])).tags, ["c", "a"])
        XCTAssertEqual(try store.edit(id: memo.id, tags: TagChanges(replacement: [])).tags, [])
        XCTAssertEqual(try store.summaries(tag: "c").map(\.id), [])
    }

    func testABadTagChangesNothing() throws {
        let store = makeMemoStore()
        let memo = try store.add(NewMemo(text: "x", tags: ["a"]))
        for bad in ["", "two words", "a,b", "nul\0"] {
            XCTAssertThrowsError(try store.edit(id: memo.id, text: "changed", tags: TagChanges(added: [bad]))) { error in
                XCTAssertEqual((error as? MemoError)?.kind, .usage, "\(bad.debugDescription)")
            }
            XCTAssertThrowsError(try store.edit(id: memo.id, tags: TagChanges(removed: [bad])))
        }
        XCTAssertEqual(try store.memo(id: memo.id), memo, "neither the text nor the tags changed")
        XCTAssertThrowsError(try store.edit(id: 99, tags: TagChanges(added: ["a"]))) { error in
            XCTAssertEqual((error as? MemoError)?.kind, .notFound)
        }
    }

    func testTagChangesArithmetic() {
        XCTAssertTrue(TagChanges().isEmpty)
        XCTAssertFalse(TagChanges(replacement: []).isEmpty)
        XCTAssertEqual(TagChanges(added: ["b"], removed: ["A"]).applied(to: ["a", "c"]), ["c", "b"])
        XCTAssertEqual(TagChanges(added: ["a"], removed: ["a"]).applied(to: ["a"]), ["a"], "an added tag stays, as in todo edit")
        XCTAssertEqual(TagChanges(removed: ["absent"]).applied(to: ["a"]), ["a"])
        XCTAssertEqual(TagChanges(replacement: ["x", "X", "y"], removed: ["y"]).applied(to: ["a"]), ["x"])
        XCTAssertEqual(TagChanges(added: ["Ä"]).applied(to: ["ä"]), ["ä"], "case beyond ASCII, as Tags.normalized compares")
    }
}
