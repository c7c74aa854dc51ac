import Foundation
import TestSupport
import XCTest

/// `memo edit --tag/--untag` and `voice edit` on the built binary: the same
/// flags and checks as `todo edit`, the tag filter following, and one undo
/// step putting the tags back.
final class TagEditEndToEndTests: XCTestCase {
    private let home = VoiceHome()
    private var app: Memoapp { home.app }

    private func ids(_ arguments: String...) -> [Int] {
        app.run(arguments + ["--json"]).array().compactMap { $0["id"] as? Int }
    }

    func testMemoTagsChangeWithoutTheEditorAndTheFilterFollows() {
        XCTAssertEqual(app.run("memo", "add", "장보기", "--tag", "home", "--tag", "errand").status, 0)
        let edited = app.run(["memo", "edit", "1", "--tag", "#가족", "--untag", "HOME", "--json"], environment: ["EDITOR": "false"])
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(edited.object()["tags"] as? [String], ["errand", "가족"])
        XCTAssertEqual(edited.object()["text"] as? String, "장보기")
        XCTAssertEqual(ids("memo", "list", "--tag", "가족"), [1])
        XCTAssertEqual(ids("memo", "list", "--tag", "home"), [])
        let text = app.run("memo", "edit", "1", "--untag", "absent")
        XCTAssertEqual(text.status, 0, "removing an absent tag is no error, as in todo edit: \(text.stderr)")
        XCTAssertTrue(text.stdout.hasPrefix("Changed memo "), text.stdout)

        let undone = app.run("undo")
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(app.run("undo").status, 0)
        XCTAssertEqual(ids("memo", "list", "--tag", "home"), [1], "undo put the tag filter's rows back too")
        XCTAssertEqual(app.run("memo", "show", "1", "--json").object()["tags"] as? [String], ["home", "errand"])
    }

    func testBadTagsAreUsageErrorsAndChangeNothing() {
        XCTAssertEqual(app.run("memo", "add", "x", "--tag", "a").status, 0)
        for arguments in [["--tag", "two words"], ["--tag", ""], ["--untag", "a,b"], ["--tag", "a", "--untag", ""]] {
            let refused = app.run(["memo", "edit", "1"] + arguments)
            XCTAssertEqual(refused.status, 64, "\(arguments): \(refused.stderr)")
            XCTAssertTrue(refused.stderr.contains("See 'memoapp memo edit --help'"), refused.stderr)
        }
        XCTAssertEqual(app.run("memo", "edit", "9", "--tag", "a").status, 4)
        XCTAssertEqual(app.run("memo", "show", "1", "--json").object()["tags"] as? [String], ["a"])
    }

    func testVoiceEditChangesTagsAndTitleAndIsUndoneInOneStep() {
        home.importFile(VoiceHome.fixture("tone-mono-16k.wav"), "--title", "stand-up", "--tag", "work")
        let edited = app.run("voice", "edit", "1", "--title", "회의", "--tag", "meeting", "--untag", "WORK", "--json")
        XCTAssertEqual(edited.status, 0, edited.stderr)
        XCTAssertEqual(edited.object()["tags"] as? [String], ["meeting"])
        XCTAssertEqual(edited.object()["title"] as? String, "회의")
        XCTAssertEqual(ids("voice", "list", "--tag", "meeting"), [1])
        XCTAssertEqual(ids("voice", "list", "--tag", "work"), [])

        let nothing = app.run("voice", "edit", "1")
        XCTAssertEqual(nothing.status, 64)
        XCTAssertTrue(nothing.stderr.contains("nothing to change"), nothing.stderr)
        XCTAssertEqual(app.run("voice", "edit", "1", "--tag", "a b").status, 64)
        XCTAssertEqual(app.run("voice", "edit", "1", "--title", " ").status, 64)
        XCTAssertEqual(app.run("voice", "edit", "7", "--tag", "a").status, 4)

        let undone = app.run("undo")
        XCTAssertEqual(undone.status, 0, undone.stderr)
        XCTAssertEqual(undone.stdout, "Undid: voice edit 1 --title 회의 --tag meeting --untag WORK\n")
        let memo = home.memos().first ?? [:]
        XCTAssertEqual(memo["tags"] as? [String], ["work"])
        XCTAssertEqual(memo["title"] as? String, "stand-up")
        XCTAssertEqual(ids("voice", "list", "--tag", "work"), [1])
    }

    /// Voice memos take tags by the rule to-dos and memos follow, when
    /// imported and recorded too (they once allowed spaces there).
    func testVoiceImportTagsFollowTheOneTagRule() {
        let fixture = VoiceHome.fixture("tone-mono-16k.wav")
        for bad in ["two words", "a,b", "#", " "] {
            let refused = app.run("voice", "import", fixture, "--tag", bad)
            XCTAssertEqual(refused.status, 64, "\(bad): \(refused.stderr)")
        }
        XCTAssertEqual(home.memos().count, 0, "nothing stored by a refused import")
        let imported = app.run("voice", "import", fixture, "--tag", "#Work", "--tag", "work", "--tag", "회의", "--json")
        XCTAssertEqual(imported.status, 0, imported.stderr)
        XCTAssertEqual(Set(imported.object()["tags"] as? [String] ?? []), ["Work", "회의"])
        XCTAssertEqual(ids("voice", "list", "--tag", "#Work"), [1])
        XCTAssertEqual(ids("voice", "list", "--tag", "work"), [1], "tags differ only in ASCII case are one tag")
        XCTAssertEqual(app.run("voice", "list", "--tag", "a b").status, 64)
    }
}
