import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 6: hostile text goes into every
/// text field and comes back exactly, or is refused clearly with nothing stored.
final class TortureHostileTextEndToEndTests: XCTestCase {
    var folder: TemporaryDirectory!
    var app: Memoapp!

    let hostile = [
        "'); DROP TABLE todos; --",
        "$(touch /tmp/memoapp-pwned) `id` ; rm -rf ~ && x | y > z",
        "100% _done_ \\ [x] \"}]}{",
        "\u{202E}evil.exe\u{202C} שלום مرحبا",
        "e\u{301}\u{327}\u{308} Z\u{351}\u{36B}\u{343} \u{1112}\u{1161}\u{11AB}",
        "👩‍👩‍👧‍👦 a\u{200B}b\u{FEFF}c \u{2028}\u{2029}",
        "esc\u{1B}[31mred\u{1B}[0m bell\u{07} tab\t",
    ]

    override func setUp() {
        folder = TemporaryDirectory()
        app = Memoapp(home: folder.appending("home"))
        app.onboard()
    }

    private func show(_ kind: String, _ id: Any?) -> [String: Any] {
        app.run(kind, "show", String(describing: id ?? 0), "--json").object()
    }

    /// Titles are one line: none of LF, CR, VT, FF, NEL, U+2028 or U+2029.
    private func isOneLine(_ text: String) -> Bool {
        !text.unicodeScalars.contains { (0x0A...0x0D).contains($0.value) || [0x85, 0x2028, 0x2029].contains($0.value) }
    }

    func testHostileTextRoundTripsThroughEveryNoteField() {
        for text in hostile {
            // A title of several lines is refused (64) with nothing stored;
            // the note and the memo's text keep their line breaks.
            let title = isOneLine(text) ? text : "one line"
            if !isOneLine(text) {
                XCTAssertEqual(app.run(["todo", "add", "--", text]).status, 64, text)
                XCTAssertEqual(app.run(["memo", "add", "--title=" + text, "--", text]).status, 64, text)
            }
            let todo = app.run(["todo", "add", "--json", "--note=" + text, "--", title])
            XCTAssertEqual(todo.status, 0, todo.stderr)
            let shownTodo = show("todo", todo.object()["id"])
            XCTAssertEqual(shownTodo["title"] as? String, title)
            XCTAssertEqual(shownTodo["note"] as? String, text)
            let memo = app.run(["memo", "add", "--json", "--title=" + title, "--", text])
            XCTAssertEqual(memo.status, 0, memo.stderr)
            let shownMemo = show("memo", memo.object()["id"])
            XCTAssertEqual(shownMemo["title"] as? String, title)
            XCTAssertEqual(shownMemo["text"] as? String, text)
            let search = app.run(["search", "--json", "--", text])
            XCTAssertEqual(search.status, 0, search.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: "/tmp/memoapp-pwned"))
        for view in [["todo", "list", "--all"], ["memo", "list"], ["memo", "show", "1"], []] {
            XCTAssertEqual(app.run(view).status, 0, "\(view)")
        }
    }

    func testTimerLabelsAndVoiceTitlesRoundTripOrAreRefusedWithNothingStored() throws {
        let audio = folder.appending("a.wav")
        for (index, given) in hostile.enumerated() {
            // Labels and titles drop white space at either end (their documented rule).
            let text = String(given.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
            let timer = app.run(["timer", "start", "5m", "--json", "--label=" + given])
            if timer.status == 0 {
                XCTAssertEqual(timer.object()["label"] as? String, text)
            } else {
                // Labels are one line without control characters: refused as a usage error.
                XCTAssertEqual(timer.status, 64, timer.stderr)
                XCTAssertTrue(text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, text)
            }
            try HandMadeWAV.bytes(samples: [Int16(index), 1, 2, 3], channels: 1, rate: 8000)
                .write(to: URL(fileURLWithPath: audio))
            let voice = app.run(["voice", "import", audio, "--json", "--title=" + given])
            guard isOneLine(text) else {
                XCTAssertEqual(voice.status, 64, "a title of several lines: \(voice.stderr)")
                continue
            }
            XCTAssertEqual(voice.status, 0, voice.stderr)
            XCTAssertEqual(show("voice", voice.object()["id"])["title"] as? String, text)
        }
        let timers = app.run("timer", "list", "--all", "--json").array().count
        let refused = hostile.filter { text in
            let trimmed = text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }
            return trimmed.contains { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } }
        }.count
        XCTAssertEqual(timers, hostile.count - refused, "a refused label still made a timer")
    }

    func testTagsAreOneWordAndAnythingElseIsRefusedWithNothingStored() {
        let added = app.run(["todo", "add", "--json", "--tag=#태그_x-y.z👍", "t"])
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertEqual(show("todo", added.object()["id"])["tags"] as? [String], ["태그_x-y.z👍"])
        for text in hostile where text.contains(" ") {
            XCTAssertEqual(app.run(["todo", "add", "--tag=" + text, "t"]).status, 64, text)
            XCTAssertEqual(app.run(["memo", "add", "--tag=" + text, "m"]).status, 64, text)
        }
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().count, 1)
        XCTAssertEqual(app.run("memo", "list", "--json").array().count, 0)
    }

    func testStdinKeepsNulBytesAndRefusesWhatIsNotUTF8() throws {
        let withNul = "a\0b\0\0c\r\nline two"
        let stored = app.run(["memo", "add", "--json"], input: Data(withNul.utf8))
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertEqual(show("memo", stored.object()["id"])["text"] as? String, withNul)
        for bytes: [UInt8] in [[0x63, 0x61, 0x66, 0xE9], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xFF, 0xFE, 0x00]] {
            let refused = app.run(["memo", "add", "--json"], input: Data(bytes))
            XCTAssertEqual(refused.status, 65, "\(bytes)")
            XCTAssertEqual(refused.errorCode, "bad_input")
        }
        XCTAssertEqual(app.run("memo", "list", "--json").array().count, 1)
    }

    func testTenMegabytesOnStdinAreStoredExactly() throws {
        let text = String(String(repeating: "10MB 메모 ", count: 1_000_000).utf8.prefix(10_000_000))!
        let stored = app.run(["memo", "add", "--json"], input: Data(text.utf8))
        XCTAssertEqual(stored.status, 0, stored.stderr)
        XCTAssertEqual(show("memo", stored.object()["id"])["text"] as? String, text)
    }

    func testArgumentsThatAreNotUTF8AreRefusedInEveryField() throws {
        // Through the shell, which passes the bytes as they are.
        let cases = ["todo add $'caf\\xe9'", "todo add t --note $'\\xc0\\xaf'", "memo add $'\\xed\\xa0\\x80'",
                     "memo add m --title $'\\xff'", "timer start 5m --label $'\\xe0\\xa4'",
                     "todo add t --tag $'\\xfe'", "search $'\\xff\\xff\\xff'"]
        for command in cases {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "exec '\(Memoapp.binaryPath)' \(command) 2>&1 >/dev/null"]
            process.environment = app.environment
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let message = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 65, command)
            XCTAssertTrue(message.contains("is not UTF-8 text; nothing was changed"), "\(command): \(message)")
        }
        XCTAssertEqual(app.run("todo", "list", "--all", "--json").array().count, 0)
        XCTAssertEqual(app.run("memo", "list", "--json").array().count, 0)
        XCTAssertEqual(app.run("timer", "list", "--all", "--json").array().count, 0)
    }
}
