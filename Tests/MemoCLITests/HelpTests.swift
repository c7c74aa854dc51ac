import CommandLineKit
import MemoCore
@testable import MemoCLI
import MemoKit
import XCTest

final class HelpTests: XCTestCase {
    /// Every command path of the shipped tree, root first.
    private func allPaths(_ command: MemoCLI.Command, _ prefix: [String] = []) -> [[String]] {
        [prefix] + command.subcommands.flatMap { allPaths($0, prefix + [$0.name]) }
    }

    func testEveryCommandAnswersHelpWithExitZeroWithoutCreatingTheDataHome() {
        let app = TestApp()
        let paths = allPaths(App(environment: [:], streams: RecordingStreams()).root)
        XCTAssertGreaterThan(paths.count, 10, "the tree has onboard and its subcommands")
        for path in paths {
            for arguments in [path + ["--help"], path + ["-h"], ["--help"] + path] {
                let run = app.run(arguments)
                XCTAssertEqual(run.status, 0, "\(arguments): \(run.stderr)")
                XCTAssertEqual(run.stderr, "", "\(arguments)")
                let usage = "usage: " + (["memoapp"] + path).joined(separator: " ")
                XCTAssertTrue(run.stdout.contains(usage), "\(arguments): \(run.stdout)")
                XCTAssertTrue(run.stdout.contains("--help"), "\(arguments)")
            }
        }
        XCTAssertFalse(app.homeExists)
    }

    private func helpOnATerminal(_ arguments: [String], columns: Int) -> AppRun {
        let streams = RecordingStreams()
        streams.isOutputTerminal = true
        streams.terminalWidth = columns
        return TestApp().run(arguments, streams: streams)
    }

    func testHelpIsWrappedToTheTerminalsWidthInBothLanguages() {
        for language in ["en", "ko"] {
            for path in [["todo", "add"], ["search"], ["todo", "list"], []] {
                let run = helpOnATerminal(path + ["--help", "--lang", language], columns: 40)
                XCTAssertEqual(run.status, 0)
                for line in run.stdout.split(separator: "\n") {
                    XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), 40, "\(path) \(language): \(line)")
                }
            }
        }
        // A description too long for its column goes on under itself.
        let wide = helpOnATerminal(["todo", "add", "--help"], columns: 120).stdout
        let narrow = helpOnATerminal(["todo", "add", "--help"], columns: 60).stdout
        XCTAssertGreaterThan(narrow.split(separator: "\n").count, wide.split(separator: "\n").count)
    }

    func testHelpInAPipeIsNotWrappedUnlessColumnsIsSet() {
        let app = TestApp()
        let longest = app.run("search", "--help").stdout.split(separator: "\n").map { DisplayWidth.of(String($0)) }.max()
        XCTAssertGreaterThan(longest ?? 0, 80)
        app.environment["COLUMNS"] = "50"
        for line in app.run("search", "--help").stdout.split(separator: "\n") {
            XCTAssertLessThanOrEqual(DisplayWidth.of(String(line)), 50, String(line))
        }
    }

    func testThePrioritySynonymsAreListed() {
        let english = TestApp().run("todo", "add", "--help").stdout
        XCTAssertTrue(english.contains("(also h, 높음, med, m, 보통, l, 낮음)"), english)
        let korean = TestApp().run("todo", "add", "--help", "--lang", "ko").stdout
        XCTAssertTrue(korean.contains("(h, 높음, med, m, 보통, l, 낮음도 됨)"), korean)
    }

    func testHelpIsInKoreanWhenAsked() {
        let app = TestApp()
        let run = app.run("onboard", "--help", "--lang", "ko")
        XCTAssertEqual(run.status, 0)
        XCTAssertTrue(run.stdout.hasPrefix("첫 실행 온보딩"), run.stdout)
        XCTAssertTrue(run.stdout.contains("사용법: memoapp onboard"), run.stdout)
        XCTAssertTrue(run.stdout.contains("명령:"), run.stdout)
        XCTAssertTrue(run.stdout.contains("옵션:"), run.stdout)
    }

    func testTheTopHelpListsTheCommands() {
        let run = TestApp().run("--help")
        XCTAssertTrue(run.stdout.hasPrefix("memoapp: to-dos, memos, voice memos and timers"), run.stdout)
        let onboardLine = run.stdout.split(separator: "\n").first { $0.hasPrefix("  onboard ") }
        XCTAssertEqual(onboardLine?.split(separator: " ", maxSplits: 1).last?
                           .trimmingCharacters(in: .whitespaces), "the first-run onboarding (four pages)", run.stdout)
    }

    func testOnboardHelpListsEverySubcommand() {
        let run = TestApp().run("onboard", "--help")
        for name in ["status", "pages", "show", "next", "prev", "goto", "start", "skip", "reset"] {
            XCTAssertTrue(run.stdout.contains("\n  \(name) "), "\(name) missing from\n\(run.stdout)")
        }
        XCTAssertTrue(run.stdout.contains("More: memoapp onboard COMMAND --help"), run.stdout)
    }

    func testHelpIsGeneratedFromTheDeclarations() {
        let sample = MemoCLI.Command(
            "sample", abstract: Localized(en: "a sample command", ko: "예시 명령"),
            options: [
                OptionKey<String>("due", "WHEN", help: Localized(en: "when it is due", ko: "마감")),
                RepeatedOptionKey<String>("tag", short: "t", "T", help: Localized(en: "a tag", ko: "태그")),
                Flag("all", short: "a", help: Localized(en: "every item", ko: "모두")),
                OptionKey<String>("from", "F", required: true, help: Localized(en: "where from", ko: "출처")),
            ],
            positionals: [
                Arguments<String>("TITLE", help: Localized(en: "the title", ko: "제목")),
                OptionalArgument<String>("NOTE", help: Localized(en: "a note", ko: "메모")),
            ],
            discussion: Localized(en: "Example: memoapp sample milk", ko: "예: memoapp sample milk"),
            body: { _, _ in })
        let run = TestApp(extraCommands: [sample]).run("sample", "--help")
        XCTAssertEqual(run.status, 0)
        let expected = [
            "a sample command",
            "usage: memoapp sample TITLE... [NOTE] [--due WHEN] [--tag T]... [--all] --from F",
            "Arguments:",
            "  TITLE  the title",
            "  NOTE   a note",
            "Options:",
            "    --due WHEN",
            "-t, --tag T",
            "-a, --all",
            "every item",
            "-h, --help",
            "    --json",
            "    --lang ko|en",
            "    --home DIR",
            "    --no-color",
            "    --version",
            "Example: memoapp sample milk",
        ]
        for line in expected {
            XCTAssertTrue(run.stdout.contains(line), "'\(line)' missing from\n\(run.stdout)")
        }
    }

    func testTheUsageLineShowsWhatACommandNeeds() {
        let renderer = HelpRenderer(root: App(environment: [:], streams: RecordingStreams()).root, language: .en)
        XCTAssertEqual(renderer.usageLine(for: []), "usage: memoapp [COMMAND]")
        XCTAssertEqual(renderer.usageLine(for: ["onboard"]), "usage: memoapp onboard [COMMAND]")
        XCTAssertEqual(renderer.usageLine(for: ["onboard", "goto"]), "usage: memoapp onboard goto N")
        XCTAssertEqual(renderer.usageLine(for: ["onboard", "status"]), "usage: memoapp onboard status")
    }

    func testVersionPrintsTheVersionWithoutCreatingTheDataHome() throws {
        let app = TestApp()
        XCTAssertEqual(app.run("--version").stdout, "memoapp \(Version.current)\n")
        let json = app.run("--version", "--json")
        XCTAssertEqual(json.status, 0)
        XCTAssertEqual(json.jsonObject()["version"] as? String, Version.current)
        XCTAssertEqual(json.jsonObject()["name"] as? String, "memoapp")
        XCTAssertFalse(app.homeExists)
    }
}
