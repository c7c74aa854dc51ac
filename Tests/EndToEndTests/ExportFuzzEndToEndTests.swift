import Foundation
import TestSupport
import XCTest

/// The quick part of `scripts/torture` part 8: one leaf of an export document
/// at a time gets an extreme value (±2^63, 2^64, 1e308, 1e400, −0, a huge
/// string, NUL, lone surrogates, years 0 and 10000…), the document is
/// imported, and every view runs: nothing crashes, a refused import changes
/// nothing, and whatever a view cannot show, doctor reports. The seed is
/// printed; MEMOAPP_FUZZ_SEED=N repeats a run.
final class ExportFuzzEndToEndTests: XCTestCase {
    static let rounds = 40
    static let placeholder = "@@memoapp-fuzz-leaf@@"
    static let values: [(String, String)] = [
        ("2^63", "9223372036854775808"), ("-2^63", "-9223372036854775808"), ("2^63-1", "9223372036854775807"),
        ("2^64", "18446744073709551616"), ("1e308", "1e308"), ("-1e308", "-1e308"), ("1e400", "1e400"),
        ("-0", "-0"), ("-0.0", "-0.0"), ("0", "0"), ("null", "null"), ("true", "true"), ("empty string", "\"\""),
        ("huge string", "\"" + String(repeating: "x", count: 200_000) + "\""), ("NUL", #""a\u0000b""#),
        ("lone high surrogate", #""\ud800""#), ("lone low surrogate", #""x\udc00y""#),
        ("controls", #""\u001b[2J\u0007\r\nline\u009b""#), ("bidi", #""\u202eevil.exe\u202c""#),
        ("year 0", #""0000-01-01T00:00:00Z""#), ("year 10000", #""10000-01-01T00:00:00Z""#),
        ("offset past 9999", #""9999-12-31T23:59:59-23:59""#), ("empty array", "[]"), ("empty object", "{}"),
    ]
    /// Views that fail with "not found" when the document lost that id.
    static let showCommands: Set<String> = ["todo show", "memo show", "timer status"]

    var folder: TemporaryDirectory!

    override func setUp() {
        folder = TemporaryDirectory()
    }

    func testExtremeValuesInEveryLeafCrashNothingAndDoctorTellsWhatCannotBeRead() throws {
        let seed = ProcessInfo.processInfo.environment["MEMOAPP_FUZZ_SEED"].flatMap(UInt64.init)
            ?? UInt64.random(in: 0..<(1 << 30))
        print("ExportFuzzEndToEndTests: seed \(seed) (MEMOAPP_FUZZ_SEED=\(seed) repeats this run)")
        var generator = SplitMix(seed: seed)
        let source = Memoapp(home: folder.appending("source"))
        source.onboard()
        fill(source)
        let document = try XCTUnwrap(source.run("export").json() as? [String: Any])
        // A voice memo's frames and duration are checked against its audio,
        // a check of its own (scripts/torture part 8 fuzzes them too).
        let leaves = ExportFuzzEndToEndTests.leaves(of: document).filter { path in
            guard case .key("voice_memos")? = path.first, case let .key(last)? = path.last else { return true }
            return last != "frames" && last != "duration"
        }
        XCTAssertGreaterThan(leaves.count, 100)
        var accepted = 0
        for round in 0..<ExportFuzzEndToEndTests.rounds {
            let leaf = leaves[Int(generator.next() % UInt64(leaves.count))]
            let (name, raw) = ExportFuzzEndToEndTests.values[Int(generator.next() % UInt64(ExportFuzzEndToEndTests.values.count))]
            let withData = generator.next() % 2 == 0
            let context = "seed \(seed) round \(round): \(ExportFuzzEndToEndTests.describe(leaf)) = \(name)"
                + (withData ? " into a home with data" : " into a fresh home")
            if try attempt(document, leaf: leaf, raw: raw, withData: withData, audio: source.home + "/voice",
                           context: context) {
                accepted += 1
            }
        }
        print("ExportFuzzEndToEndTests: \(accepted) of \(ExportFuzzEndToEndTests.rounds) documents accepted")
    }

    // MARK: - One document

    /// Imports the document with `raw` at `leaf`; checks it all. True when accepted.
    private func attempt(_ document: [String: Any], leaf: [PathStep], raw: String, withData: Bool, audio: String,
                         context: String) throws -> Bool {
        let round = TemporaryDirectory()
        let path = round.appending("export.json")
        try Data(try ExportFuzzEndToEndTests.text(of: document, replacing: leaf, with: raw).utf8)
            .write(to: URL(fileURLWithPath: path))
        let app = Memoapp(home: round.appending("home"))
        app.onboard()
        if withData {
            XCTAssertEqual(app.run("todo", "add", "already here").status, 0)
            XCTAssertEqual(app.run("timer", "start", "5m", "--label", "here").status, 0)
        }
        let before = TransferHomes.withoutExportTime(app.run("export").stdout)
        let result = app.run("import", path, "--audio", audio)
        assertNoCrash(result, "import", context)
        XCTAssertTrue([0, 65].contains(result.status), "\(context): import exited \(result.status): \(result.stderr)")
        guard result.status == 0 else {
            XCTAssertEqual(TransferHomes.withoutExportTime(app.run("export").stdout), before,
                           "\(context): refused, but the home changed")
            return false
        }
        var failed: [String] = []
        for arguments in ExportFuzzEndToEndTests.views {
            let run = app.run(arguments)
            let name = arguments.prefix(2).joined(separator: " ")
            assertNoCrash(run, name, context)
            if run.status != 0, !(ExportFuzzEndToEndTests.showCommands.contains(name) && run.status == 4) {
                failed.append("\(arguments) → \(run.status): \(run.stderr.prefix(200))")
            }
        }
        let doctor = app.run("doctor")
        assertNoCrash(doctor, "doctor", context)
        if let first = failed.first {
            XCTAssertNotEqual(doctor.status, 0, "\(context): \(first), but doctor says all is well")
        }
        return true
    }

    private func assertNoCrash(_ result: RunResult, _ command: String, _ context: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        let markers = ["Fatal error", "Illegal instruction", "Segmentation fault", "Assertion failed"]
        XCTAssertTrue(result.status >= 0 && result.status < 128 && !markers.contains { result.stderr.contains($0) },
                      "\(context): \(command) crashed (\(result.status)): \(result.stderr.prefix(300))",
                      file: file, line: line)
    }

    static let views: [[String]] = {
        let text: [[String]] = [["todo", "list", "--all"], ["todo", "show", "1"], ["memo", "list"],
                                ["memo", "show", "1"], ["search", "a"], ["timer", "list", "--all"],
                                ["timer", "status", "1"], ["voice", "list"], []]
        return text + text.map { $0 + ["--json"] } + [["export"]]
    }()

    /// A to-do, a memo, timers in every state, a voice memo.
    private func fill(_ app: Memoapp) {
        for arguments in [["todo", "add", "회의 🎉", "--tag", "work", "--due", "2030-06-01 09:30", "--note", "a\nb"],
                          ["todo", "add", "done", "--priority", "low"], ["todo", "done", "2"],
                          ["memo", "add", "--title", "제목", "--tag", "notes", "첫 줄\n둘째 줄"], ["memo", "pin", "1"],
                          ["timer", "start", "--label", "run"], ["timer", "lap", "1"], ["timer", "pause", "1"],
                          ["timer", "resume", "1"], ["timer", "start", "25m"], ["timer", "pause", "2"],
                          ["timer", "start"], ["timer", "stop", "3"], ["timer", "start", "10m"],
                          ["timer", "cancel", "4"], ["voice", "import", TransferHomes.fixtures + "/beep.mp3"]] {
            let result = app.run(arguments)
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.stderr)")
        }
    }

    // MARK: - Documents

    enum PathStep {
        case key(String)
        case index(Int)
    }

    /// Every leaf (a scalar, or an empty array or object), in document order.
    static func leaves(of value: Any, at path: [PathStep] = []) -> [[PathStep]] {
        if let object = value as? [String: Any], !object.isEmpty {
            return object.keys.sorted().flatMap { leaves(of: object[$0]!, at: path + [.key($0)]) }
        }
        if let array = value as? [Any], !array.isEmpty {
            return array.indices.flatMap { leaves(of: array[$0], at: path + [.index($0)]) }
        }
        return [path]
    }

    static func describe(_ path: [PathStep]) -> String {
        "$" + path.map { step -> String in
            switch step {
            case let .key(key): return "." + key
            case let .index(index): return "[\(index)]"
            }
        }.joined()
    }

    /// The document as JSON text with `raw` (JSON text, which need not be
    /// valid for Foundation: 1e400, a lone surrogate) at `path`.
    static func text(of document: [String: Any], replacing path: [PathStep], with raw: String) throws -> String {
        let changed = setting(document, path[...], to: placeholder)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: changed), as: UTF8.self)
        return text.replacingOccurrences(of: "\"\(placeholder)\"", with: raw)
    }

    private static func setting(_ value: Any, _ path: ArraySlice<PathStep>, to leaf: Any) -> Any {
        guard let step = path.first else { return leaf }
        switch step {
        case let .key(key):
            var object = value as! [String: Any]
            object[key] = setting(object[key]!, path.dropFirst(), to: leaf)
            return object
        case let .index(index):
            var array = value as! [Any]
            array[index] = setting(array[index], path.dropFirst(), to: leaf)
            return array
        }
    }
}
