import MemoCore
@testable import MemoCLI
import XCTest

final class ParserTests: XCTestCase {
    private static let none = Localized(verbatim: "")
    private static let noop: Command.Body = { _, _ in }

    /// A tree shaped like memoapp's later commands, declared here so the tests
    /// cover every kind of declaration whatever the real commands use.
    private let parser: Parser = {
        let add = Command(
            "add", abstract: none,
            options: [
                .value("due", "WHEN", help: none),
                .value("tag", short: "t", "T", repeatable: true, help: none),
                .value("priority", short: "p", "N", kind: .integer(1...5), help: none),
                .value("sort", "KEY", kind: .choice(["due", "created"]), help: none),
                .flag("all", short: "a", help: none),
                .flag("done", short: "d", help: none),
                .flag("verbose", short: "v", help: none),
            ],
            positionals: [Positional("TITLE", arity: .variadic(minimum: 1), help: none)],
            exclusiveOptions: [["all", "done"]], body: noop)
        let move = Command(
            "move", abstract: none,
            positionals: [
                Positional("ID", kind: .integer(1...1000), help: none),
                Positional("OFFSET", kind: .integer(-100...100), help: none),
                Positional("NOTE", arity: .optional, help: none),
            ], body: noop)
        let list = Command("list", abstract: none, options: [.value("limit", "N", kind: .integer(1...100), help: none)],
                           body: noop)
        let todo = Command("todo", abstract: none, subcommands: [add, move, list])
        let status = Command("status", abstract: none, body: noop)
        return Parser(root: Command("memoapp", abstract: none, subcommands: [todo, status], access: .alwaysRuns,
                                    body: noop))
    }()

    private func parse(_ arguments: String...) throws -> Invocation { try parser.parse(arguments) }

    /// Asserts a usage error whose English message contains `fragment`, for the command at `path`.
    private func assertUsageError(_ arguments: [String], mentions fragment: String, path: [String]? = nil,
                                  file: StaticString = #filePath, line: UInt = #line) {
        do {
            let invocation = try parser.parse(arguments)
            XCTFail("\(arguments) parsed as \(invocation.path)", file: file, line: line)
        } catch let error as UsageError {
            XCTAssertTrue(error.message.en.contains(fragment), "\(error.message.en) lacks \(fragment)",
                          file: file, line: line)
            XCTAssertFalse(error.message.ko.isEmpty, file: file, line: line)
            if let path { XCTAssertEqual(error.path, path, file: file, line: line) }
        } catch {
            XCTFail("expected a UsageError, got \(error)", file: file, line: line)
        }
    }

    // MARK: Commands

    func testNoArgumentsIsTheRootCommand() throws {
        let invocation = try parse()
        XCTAssertEqual(invocation.path, [])
        XCTAssertEqual(invocation.command.name, "memoapp")
    }

    func testNestedSubcommandsArePickedByName() throws {
        let invocation = try parse("todo", "add", "milk", "and", "eggs")
        XCTAssertEqual(invocation.path, ["todo", "add"])
        XCTAssertEqual(invocation.commands.map(\.name), ["memoapp", "todo", "add"])
        XCTAssertEqual(invocation.arguments.positionals("TITLE"), ["milk", "and", "eggs"])
    }

    func testAWordAfterAPositionalIsAPositionalEvenIfItNamesACommand() throws {
        XCTAssertEqual(try parse("todo", "add", "buy", "list").arguments.positionals("TITLE"), ["buy", "list"])
    }

    func testUnknownCommandsAreUsageErrors() {
        assertUsageError(["frobnicate"], mentions: "unknown command 'frobnicate'", path: [])
        assertUsageError(["todo", "frob"], mentions: "unknown command 'frob'", path: ["todo"])
        assertUsageError(["Todo"], mentions: "unknown command 'Todo'")
    }

    func testAGroupWithoutItsSubcommandIsAUsageError() {
        assertUsageError(["todo"], mentions: "missing subcommand", path: ["todo"])
    }

    // MARK: Options

    func testLongOptionsTakeTheNextWordOrAnInlineValue() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "--due", "tomorrow").arguments.value("due"), "tomorrow")
        XCTAssertEqual(try parse("todo", "add", "x", "--due=tomorrow").arguments.value("due"), "tomorrow")
        XCTAssertEqual(try parse("todo", "add", "--due=a=b", "x").arguments.value("due"), "a=b")
        XCTAssertEqual(try parse("todo", "add", "x", "--due=").arguments.value("due"), "")
        XCTAssertEqual(try parse("todo", "add", "x", "--due", "내일 오후 3시").arguments.value("due"), "내일 오후 3시")
    }

    func testShortOptionsTakeTheNextWordOrTheRestOfTheWord() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "-p", "3").arguments.integer("priority"), 3)
        XCTAssertEqual(try parse("todo", "add", "x", "-p3").arguments.integer("priority"), 3)
    }

    func testShortFlagsCanShareOneDash() throws {
        let arguments = try parse("todo", "add", "x", "-av").arguments
        XCTAssertTrue(arguments.flag("all"))
        XCTAssertTrue(arguments.flag("verbose"))
        XCTAssertFalse(arguments.flag("done"))
        let mixed = try parse("todo", "add", "x", "-vp4").arguments
        XCTAssertTrue(mixed.flag("verbose"))
        XCTAssertEqual(mixed.integer("priority"), 4)
    }

    func testOptionsMayComeBeforeAndBetweenPositionals() throws {
        let arguments = try parse("todo", "add", "--due", "today", "buy", "-t", "home", "milk").arguments
        XCTAssertEqual(arguments.positionals("TITLE"), ["buy", "milk"])
        XCTAssertEqual(arguments.value("due"), "today")
        XCTAssertEqual(arguments.values("tag"), ["home"])
    }

    func testRepeatableOptionsKeepEveryValueInOrder() throws {
        let arguments = try parse("todo", "add", "x", "--tag", "a", "-t", "b", "--tag=c", "-td").arguments
        XCTAssertEqual(arguments.values("tag"), ["a", "b", "c", "d"])
        XCTAssertEqual(arguments.value("tag"), "d")
        XCTAssertTrue(arguments.isGiven("tag"))
        XCTAssertFalse(arguments.isGiven("due"))
        XCTAssertEqual(arguments.values("due"), [])
    }

    func testASingleValuedOptionGivenTwiceIsAUsageError() {
        assertUsageError(["todo", "add", "x", "--due", "a", "--due", "b"], mentions: "'--due' given twice")
    }

    func testExclusiveOptionsAreAUsageErrorTogether() throws {
        assertUsageError(["todo", "add", "x", "--all", "--done"], mentions: "--all, --done cannot be used together",
                         path: ["todo", "add"])
        assertUsageError(["todo", "add", "x", "-ad"], mentions: "cannot be used together")
        XCTAssertTrue(try parse("todo", "add", "x", "--all").arguments.flag("all"))
        XCTAssertTrue(try parse("todo", "add", "x", "--done").arguments.flag("done"))
    }

    func testMissingValuesAreUsageErrors() {
        assertUsageError(["todo", "add", "x", "--due"], mentions: "'--due' needs a value (WHEN)")
        assertUsageError(["todo", "add", "x", "-p"], mentions: "'-p' needs a value")
        assertUsageError(["status", "--home"], mentions: "'--home' needs a value")
        assertUsageError(["status", "--lang"], mentions: "'--lang' needs a value")
    }

    func testAFlagGivenAValueIsAUsageError() {
        assertUsageError(["todo", "add", "x", "--all=yes"], mentions: "'--all' takes no value")
        assertUsageError(["status", "--json=1"], mentions: "'--json' takes no value")
    }

    func testUnknownOptionsAreUsageErrors() {
        assertUsageError(["todo", "add", "x", "--bogus"], mentions: "unknown option '--bogus'", path: ["todo", "add"])
        assertUsageError(["todo", "add", "x", "-z"], mentions: "unknown option '-z'")
        assertUsageError(["todo", "add", "x", "-az"], mentions: "unknown option '-z'")
        assertUsageError(["todo", "list", "--due", "x"], mentions: "unknown option '--due'", path: ["todo", "list"])
    }

    func testTheFirstProblemIsTheOneReported() {
        assertUsageError(["todo", "add", "x", "--bogus", "--other", "-p", "9"], mentions: "'--bogus'")
    }

    // MARK: Typed values

    func testIntegerOptionsAreCheckedAgainstTheirRange() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "-p", "1").arguments.integer("priority"), 1)
        XCTAssertEqual(try parse("todo", "add", "x", "-p", "5").arguments.integer("priority"), 5)
        for bad in ["0", "6", "-1", "x", "3.5", "", " 3", "99999999999999999999"] {
            assertUsageError(["todo", "add", "x", "--priority", bad], mentions: "invalid value '\(bad)' for '--priority'")
        }
        assertUsageError(["todo", "add", "x", "-p", "6"], mentions: "expected 1 to 5")
        assertUsageError(["todo", "add", "x", "-p", "x"], mentions: "expected a whole number")
    }

    func testChoiceOptionsAcceptOnlyTheirWords() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "--sort", "created").arguments.value("sort"), "created")
        assertUsageError(["todo", "add", "x", "--sort", "size"], mentions: "expected one of due, created")
        assertUsageError(["todo", "add", "x", "--sort", "DUE"], mentions: "expected one of due, created")
    }

    func testIntegerPositionalsAreCheckedAgainstTheirRange() throws {
        let arguments = try parse("todo", "move", "7", "-3", "note").arguments
        XCTAssertEqual(arguments.integerPositional("ID"), 7)
        XCTAssertEqual(arguments.integerPositional("OFFSET"), -3)
        XCTAssertEqual(arguments.positional("NOTE"), "note")
        assertUsageError(["todo", "move", "0", "1"], mentions: "invalid ID '0'")
        assertUsageError(["todo", "move", "1001", "1"], mentions: "invalid ID '1001'")
        assertUsageError(["todo", "move", "seven", "1"], mentions: "expected a whole number")
        assertUsageError(["todo", "move", "1", "-101"], mentions: "invalid OFFSET '-101'")
    }

    // MARK: Positionals

    func testNegativeNumbersArePositionalsNotOptions() throws {
        XCTAssertEqual(try parse("todo", "move", "5", "-100").arguments.integerPositional("OFFSET"), -100)
        XCTAssertEqual(try parse("todo", "add", "-2.5", "-1").arguments.positionals("TITLE"), ["-2.5", "-1"])
        assertUsageError(["todo", "move", "5", "-x"], mentions: "unknown option '-x'")
    }

    func testMissingPositionalsAreUsageErrors() {
        assertUsageError(["todo", "add"], mentions: "missing TITLE", path: ["todo", "add"])
        assertUsageError(["todo", "move"], mentions: "missing ID")
        assertUsageError(["todo", "move", "1"], mentions: "missing OFFSET")
    }

    func testOptionalPositionalsMayBeLeftOut() throws {
        XCTAssertNil(try parse("todo", "move", "1", "2").arguments.positional("NOTE"))
    }

    func testUnexpectedPositionalsAreUsageErrors() {
        assertUsageError(["todo", "list", "extra"], mentions: "unexpected argument 'extra'", path: ["todo", "list"])
        assertUsageError(["status", "now"], mentions: "unexpected argument 'now'")
        assertUsageError(["todo", "move", "1", "2", "note", "more"], mentions: "unexpected argument 'more'")
    }

    // MARK: --

    func testDoubleDashEndsOptions() throws {
        let invocation = try parse("todo", "add", "--", "--due", "-p", "--json", "--help")
        XCTAssertEqual(invocation.arguments.positionals("TITLE"), ["--due", "-p", "--json", "--help"])
        XCTAssertFalse(invocation.arguments.isGiven("due"))
        XCTAssertFalse(invocation.globals.isJSON)
        XCTAssertFalse(invocation.globals.wantsHelp)
        XCTAssertEqual(try parse("todo", "move", "1", "2", "--", "-x").arguments.positional("NOTE"), "-x")
    }

    func testADoubleDashAloneAddsNothing() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "--").arguments.positionals("TITLE"), ["x"])
        assertUsageError(["todo", "add", "--"], mentions: "missing TITLE")
    }

    func testWordsAfterADoubleDashAreNotCommands() {
        assertUsageError(["--", "todo"], mentions: "unexpected argument 'todo'", path: [])
    }

    // MARK: Global options

    func testGlobalOptionsAreAcceptedBeforeBetweenAndAfterCommands() throws {
        for arguments in [["--json", "todo", "list"], ["todo", "--json", "list"], ["todo", "list", "--json"]] {
            let invocation = try parser.parse(arguments)
            XCTAssertTrue(invocation.globals.isJSON, "\(arguments)")
            XCTAssertEqual(invocation.path, ["todo", "list"], "\(arguments)")
        }
    }

    func testEveryGlobalOptionIsRecorded() throws {
        let globals = try parse("--home", "/tmp/h", "status", "--lang", "ko", "--no-color", "--json").globals
        XCTAssertEqual(globals.home, "/tmp/h")
        XCTAssertEqual(globals.language, "ko")
        XCTAssertTrue(globals.isColorDisabled)
        XCTAssertTrue(globals.isJSON)
        XCTAssertFalse(globals.wantsHelp)
        XCTAssertFalse(globals.wantsVersion)
        XCTAssertEqual(try parse("status", "--home=/x y").globals.home, "/x y")
        XCTAssertEqual(try parse().globals, GlobalOptions())
    }

    func testTheLanguageMustBeKoOrEn() {
        assertUsageError(["status", "--lang", "fr"], mentions: "invalid value 'fr' for '--lang'")
    }

    // MARK: --help and --version

    func testHelpShortCircuitsEveryOtherCheck() throws {
        for arguments in [["todo", "add", "--help"], ["todo", "add", "-h"], ["todo", "add", "--bogus", "--help"],
                          ["todo", "add", "x", "-p", "99", "--help"], ["--help", "todo", "add", "--all", "--done"],
                          ["todo", "add", "--lang", "fr", "-h"]] {
            let invocation: Invocation
            do {
                invocation = try parser.parse(arguments)
            } catch {
                XCTFail("\(arguments): \(error)")
                continue
            }
            XCTAssertEqual(invocation.path, ["todo", "add"], "\(arguments)")
            XCTAssertTrue(invocation.globals.wantsHelp, "\(arguments)")
        }
        XCTAssertTrue(try parse("todo", "--help").globals.wantsHelp)
        XCTAssertTrue(try parse("frobnicate", "--help").globals.wantsHelp)
    }

    func testVersionShortCircuitsToo() throws {
        XCTAssertTrue(try parse("--version").globals.wantsVersion)
        XCTAssertTrue(try parse("todo", "--version").globals.wantsVersion)
        XCTAssertTrue(try parse("todo", "move", "x", "--version").globals.wantsVersion)
    }
}
