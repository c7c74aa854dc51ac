import Foundation
import MemoAPI
@testable import MemoCLI
import MemoCore
import MemoKit
import TestSupport
import XCTest

/// docs/json.md shows every document memoapp prints; this runs memoapp for
/// each and checks that its keys and value types are the example's, so the
/// page cannot drift from the code (and a shape cannot change unnoticed).
final class JSONShapesDocumentTests: XCTestCase {
    private let app = TestApp()
    private let scratch = TemporaryDirectory()

    func testEveryDocumentedShapeIsWhatMemoappPrints() throws {
        let examples = try JSONShapesDocumentTests.documentedExamples()
        let printed = try printedDocuments()
        XCTAssertEqual(Set(examples.keys), Set(printed.keys), "docs/json.md and this test name the same shapes")
        for (name, example) in examples.sorted(by: { $0.key < $1.key }) {
            guard let actual = printed[name] else { continue }
            let differences = JSONShapesDocumentTests.differences(example, actual, at: name)
            XCTAssertEqual(differences, [], "\(name): docs/json.md differs from memoapp's output")
        }
    }

    func testTheShapeComparisonFindsAMissingKeyAndAWrongType() {
        let documented: [String: Any] = ["id": 1, "title": "x", "tags": ["a"], "due": NSNull()]
        XCTAssertEqual(JSONShapesDocumentTests.differences(documented, documented, at: "t"), [])
        XCTAssertEqual(JSONShapesDocumentTests.differences(documented, ["id": 1, "title": "x", "tags": ["a"]], at: "t"),
                       ["t.due: documented, not printed"])
        XCTAssertEqual(JSONShapesDocumentTests.differences(documented, ["id": "1", "title": "x", "tags": [2], "due": 3],
                                                           at: "t"),
                       ["t.id: documented number, printed string", "t.tags[0]: documented string, printed number"])
    }

    // MARK: - What memoapp prints, shape by shape

    private func printedDocuments() throws -> [String: Any] {
        var documents: [String: Any] = [:]
        XCTAssertEqual(app.run("onboard", "skip").status, 0)
        documents["todo"] = object(["todo", "add", "Buy milk", "--due", "2099-12-01", "--priority", "high", "--tag",
                                    "home", "--note", "2 L", "--repeat", "weekly"])
        documents["memo"] = object(["memo", "add", "회의록: 다음 주 화요일까지 초안", "--title", "주간 회의", "--tag", "work"])
        documents["memo_summary"] = first(["memo", "list"])
        documents["voice_memo"] = object(["voice", "import", JSONShapesDocumentTests.fixture("tone-mono-16k.wav"),
                                          "--title", "stand-up", "--tag", "work"])
        documents["timer"] = object(["timer", "start", "25m", "--label", "집중", "--todo", "1"])
        documents["todo_detail"] = object(["todo", "show", "1"])
        let stopwatch = object(["timer", "start"])
        documents["stopwatch"] = object(["timer", "lap", String(describing: stopwatch["id"] ?? 0)])
        documents["search_hit"] = first(["search", "회의"])
        documents["voice_search_hit"] = first(["search", "stand-up"])
        documents["onboarding"] = object(["onboard", "status"])
        documents["onboarding_page"] = first(["onboard", "pages"])
        documents["created_token"] = object(["token", "create", "laptop"])
        documents["api_token"] = first(["token", "list"])
        documents["device_code"] = object(["token", "code", "phone", "--expires", "30d"])
        documents["version"] = object(["--version"])
        documents["doctor"] = object(["doctor"])
        documents["main_screen"] = object([])

        let todoFile = scratch.appending("todo.txt")
        try Data("(A) one\ntwo\n".utf8).write(to: URL(fileURLWithPath: todoFile))
        documents["tool_import"] = object(["todo", "import", "--from", "todotxt", todoFile])
        documents["memo_export"] = object(["memo", "export", "--format", "md", scratch.appending("memos")])
        let done = object(["todo", "add", "t3"])
        _ = app.run("todo", "done", String(describing: done["id"] ?? 0))
        documents["removed"] = object(["todo", "rm", String(describing: done["id"] ?? 0)])
        documents["undo_step"] = object(["undo"])

        let exportFile = scratch.appending("export.json")
        documents["export_summary"] = object(["export", "-o", exportFile])
        documents["document_import"] = object(["import", exportFile])
        let backupFolder = scratch.appending("backup")
        documents["backup"] = object(["backup", backupFolder])
        let otherHome = TestApp()
        let restored = otherHome.run("restore", backupFolder, "--json")
        XCTAssertEqual(restored.status, 0, restored.stderr)
        documents["restore"] = restored.jsonObject()

        documents["voice_export"] = object(["voice", "export", "1", scratch.appending("x.flac")])
        documents["waveform_picture"] = object(["voice", "waveform", "1", "--output", scratch.appending("w.svg")])
        let batch = app.run("voice", "import", JSONShapesDocumentTests.fixture("not-audio.wav"),
                            JSONShapesDocumentTests.fixture("empty.wav"), "--json")
        documents["voice_import_item"] = (try? JSONSerialization.jsonObject(with: Data(batch.stdout.utf8)) as? [Any])?.first
        for name in try FileManager.default.contentsOfDirectory(atPath: app.homePath + "/voice") {
            try FileManager.default.removeItem(atPath: app.homePath + "/voice/" + name)
        }
        let verification = app.run("voice", "verify", "--json")
        XCTAssertEqual(verification.status, 1, "the removed file is a problem")
        documents["voice_verification"] = try JSONSerialization.jsonObject(with: Data(verification.stdout.utf8))

        // `remind` runs until stopped, so its line is made by the function it
        // prints with (RemindEndToEndTests runs the watcher itself).
        let event = ReminderEvent(kind: .timerFinished, itemID: 1, itemUID: "34452e0c-2ef3-48ca-9950-e0bc9978dade",
                                  title: "tea", at: Timestamp(secondsSince1970: 1_795_958_644), occurrence: 1)
        documents["reminder"] = try JSONSerialization.jsonObject(
            with: Data(WireFormat.reminder(DueReminder(event: event, isMissed: false)).serialized.utf8))

        let missing = app.run("todo", "show", "99", "--json")
        XCTAssertEqual(missing.status, 4)
        documents["error"] = try JSONSerialization.jsonObject(with: Data(missing.stderr.utf8))
        return documents
    }

    private func object(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> [String: Any] {
        let run = app.run(arguments + ["--json"])
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
        return run.jsonObject(file: file, line: line)
    }

    /// The first element of a list a command prints (the shape of each).
    private func first(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) -> Any? {
        let run = app.run(arguments + ["--json"])
        XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)", file: file, line: line)
        let list = (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [Any]
        XCTAssertFalse(list?.isEmpty ?? true, "\(arguments) printed no list: \(run.stdout)", file: file, line: line)
        return list?.first
    }

    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("fixtures/audio/" + name).path
    }

    // MARK: - The page

    /// Each `### name` section's first ```json block, parsed.
    static func documentedExamples() throws -> [String: Any] {
        let page = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/json.md")
        let text = try String(contentsOf: page, encoding: .utf8)
        var examples: [String: Any] = [:]
        var name: String?
        var block: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("### ") {
                name = String(line.dropFirst(4))
            } else if line == "```json", name != nil {
                block = []
            } else if line == "```", let lines = block, let current = name {
                examples[current] = try JSONSerialization.jsonObject(with: Data(lines.joined(separator: "\n").utf8))
                block = nil
                name = nil
            } else if block != nil {
                block?.append(line)
            }
        }
        return examples
    }

    /// Where `actual` does not have `documented`'s shape: the same keys, each
    /// value of the same JSON type (a documented null stands for any type;
    /// an array's shape is its first element's).
    static func differences(_ documented: Any, _ actual: Any, at path: String) -> [String] {
        if documented is NSNull || actual is NSNull { return [] }
        let (want, got) = (kind(documented), kind(actual))
        guard want == got else { return ["\(path): documented \(want), printed \(got)"] }
        if let documented = documented as? [String: Any], let actual = actual as? [String: Any] {
            var found: [String] = []
            for key in documented.keys.sorted() {
                guard let value = actual[key] else {
                    found.append("\(path).\(key): documented, not printed")
                    continue
                }
                found += differences(documented[key]!, value, at: "\(path).\(key)")
            }
            for key in actual.keys.sorted() where documented[key] == nil {
                found.append("\(path).\(key): printed, not documented")
            }
            return found
        }
        if let documented = documented as? [Any], let actual = actual as? [Any],
           let wantFirst = documented.first, let gotFirst = actual.first {
            return differences(wantFirst, gotFirst, at: "\(path)[0]")
        }
        return []
    }

    private static func kind(_ value: Any) -> String {
        switch value {
        case is [String: Any]: return "object"
        case is [Any]: return "array"
        case is String: return "string"
        case let number as NSNumber:
            // JSONSerialization gives true and false as NSNumbers of type "c".
            return String(cString: number.objCType) == "c" ? "boolean" : "number"
        default: return "\(type(of: value))"
        }
    }
}
