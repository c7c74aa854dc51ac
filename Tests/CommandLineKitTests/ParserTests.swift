import CommandLineKit
import MemoCore
import XCTest

/// The parser over a tree declared here, so the tests cover every kind of
/// declaration whatever the real commands use.
final class ParserTests: XCTestCase {
    typealias Command = CommandLineKit.Command<Void>
    private static let none = Localized(verbatim: "")
    private static let noop: Command.Body = { _, _ in }

    // The keys, as a front end declares them.
    static let due = OptionKey<String>("due", "WHEN", help: none)
    static let tag = RepeatedOptionKey<String>("tag", short: "t", "T", help: none)
    static let priority = OptionKey<Int>("priority", short: "p", "N", range: 1...5, help: none)
    static let sort = OptionKey<String>("sort", "KEY", kind: .choice(["due", "created"]), help: none)
    static let all = Flag("all", short: "a", help: none)
    static let done = Flag("done", short: "d", help: none)
    static let verbose = Flag("verbose", short: "v", help: none)
    static let title = Arguments<String>("TITLE", help: none)
    static let id = Argument<Int64>("ID", range: 1...1000, help: none)
    static let offset = Argument<Int64>("OFFSET", range: -100...100, help: none)
    static let note = OptionalArgument<String>("NOTE", help: none)
    static let limit = OptionKey<Int>("limit", "N", range: 1...100, help: none)
    static let level = OptionKey<Level>("level", "low|high", required: true, help: none)
    static let even = OptionKey<Int>("even", "N", help: none) { text in
        guard let number = Int(text), number % 2 == 0 else {
            throw MemoError(.usage, en: "'\(text)' is not an even number", ko: "'\(text)'은(는) 짝수가 아닙니다")
        }
        return number
    }

    enum Level: String, CaseIterable, Sendable { case low, high }

    // The global options, as memoapp's.
    static let home = OptionKey<String>("home", "DIR", kind: .path, help: none)
    static let json = Flag("json", help: none)
    static let lang = OptionKey<String>("lang", "ko|en", kind: .choice(["ko", "en"]), help: none)
    static let noColor = Flag("no-color", help: none)
    static let help = Flag("help", short: "h", help: none)
    static let version = Flag("version", help: none)

    private let parser: Parser<Void> = {
        let add = Command("add", abstract: none, options: [due, tag, priority, sort, all, done, verbose],
                          positionals: [title], exclusiveOptions: [[all, done]], body: noop)
        let move = Command("move", abstract: none, positionals: [id, offset, note], body: noop)
        let list = Command("list", abstract: none, options: [limit], body: noop)
        let check = Command("check", abstract: none, options: [level, even], body: noop)
        let todo = Command("todo", abstract: none, subcommands: [add, move, list, check])
        let status = Command("status", abstract: none, body: noop)
        return Parser(root: Command("memoapp", abstract: none, subcommands: [todo, status], access: .alwaysRuns,
                                    body: noop),
                      globalOptions: [home, json, lang, noColor, help, version])
    }()

    private func parse(_ arguments: String...) throws -> Invocation<Void> { try parser.parse(arguments) }

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
        XCTAssertEqual(invocation.arguments[ParserTests.title], ["milk", "and", "eggs"])
    }

    func testAWordAfterAPositionalIsAPositionalEvenIfItNamesACommand() throws {
        XCTAssertEqual(try parse("todo", "add", "buy", "list").arguments[ParserTests.title], ["buy", "list"])
    }

    func testUnknownCommandsAreUsageErrors() {
        assertUsageError(["frobnicate"], mentions: "unknown command 'frobnicate'", path: [])
        assertUsageError(["todo", "frob"], mentions: "unknown command 'frob'", path: ["todo"])
        assertUsageError(["Todo"], mentions: "unknown command 'Todo'")
    }

    func testAUniqueAbbreviationOfTwoLettersOrMoreNamesItsCommand() throws {
        XCTAssertEqual(try parse("to", "li").path, ["todo", "list"])
        XCTAssertEqual(try parse("todo", "mo", "3", "-1").path, ["todo", "move"])
        XCTAssertEqual(try parse("st").path, ["status"])
        assertUsageError(["t"], mentions: "unknown command 't'", path: [])
        assertUsageError(["todo", "l"], mentions: "unknown command 'l'", path: ["todo"])
    }

    func testAnUnknownCommandSuggestsTheNearestNames() {
        assertUsageError(["todo", "lsit"], mentions: "unknown command 'lsit'; did you mean 'list'?", path: ["todo"])
        assertUsageError(["todo", "adn"], mentions: "did you mean 'add'?")
        assertUsageError(["todo", "chekc"], mentions: "did you mean 'check'?")
        assertUsageError(["stats"], mentions: "did you mean 'status'?")
        assertUsageError(["frobnicate"], mentions: "unknown command 'frobnicate'", path: [])
    }

    func testAnAmbiguousAbbreviationListsWhatItCouldMean() {
        let root = Command("memoapp", abstract: ParserTests.none,
                           subcommands: [Command("record", abstract: ParserTests.none, body: ParserTests.noop),
                                         Command("rename", abstract: ParserTests.none, body: ParserTests.noop)])
        XCTAssertThrowsError(try Parser<Void>(root: root, globalOptions: []).parse(["re"])) { error in
            XCTAssertEqual((error as? UsageError)?.message.en, "unknown command 're'; did you mean 'record' or 'rename'?")
        }
        XCTAssertEqual(try Parser<Void>(root: root, globalOptions: []).parse(["rec"]).path, ["record"])
    }

    func testAGroupWithoutItsSubcommandIsAUsageError() {
        assertUsageError(["todo"], mentions: "missing subcommand", path: ["todo"])
    }

    // MARK: Options

    func testLongOptionsTakeTheNextWordOrAnInlineValue() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "--due", "tomorrow").arguments[ParserTests.due], "tomorrow")
        XCTAssertEqual(try parse("todo", "add", "x", "--due=tomorrow").arguments[ParserTests.due], "tomorrow")
        XCTAssertEqual(try parse("todo", "add", "--due=a=b", "x").arguments[ParserTests.due], "a=b")
        XCTAssertEqual(try parse("todo", "add", "x", "--due=").arguments[ParserTests.due], "")
        XCTAssertEqual(try parse("todo", "add", "x", "--due", "내일 오후 3시").arguments[ParserTests.due], "내일 오후 3시")
    }

    func testShortOptionsTakeTheNextWordOrTheRestOfTheWord() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "-p", "3").arguments[ParserTests.priority], 3)
        XCTAssertEqual(try parse("todo", "add", "x", "-p3").arguments[ParserTests.priority], 3)
    }

    func testShortFlagsCanShareOneDash() throws {
        let arguments = try parse("todo", "add", "x", "-av").arguments
        XCTAssertTrue(arguments[ParserTests.all])
        XCTAssertTrue(arguments[ParserTests.verbose])
        XCTAssertFalse(arguments[ParserTests.done])
        let mixed = try parse("todo", "add", "x", "-vp4").arguments
        XCTAssertTrue(mixed[ParserTests.verbose])
        XCTAssertEqual(mixed[ParserTests.priority], 4)
    }

    func testOptionsMayComeBeforeAndBetweenPositionals() throws {
        let arguments = try parse("todo", "add", "--due", "today", "buy", "-t", "home", "milk").arguments
        XCTAssertEqual(arguments[ParserTests.title], ["buy", "milk"])
        XCTAssertEqual(arguments[ParserTests.due], "today")
        XCTAssertEqual(arguments[ParserTests.tag], ["home"])
    }

    func testRepeatableOptionsKeepEveryValueInOrder() throws {
        let arguments = try parse("todo", "add", "x", "--tag", "a", "-t", "b", "--tag=c", "-td").arguments
        XCTAssertEqual(arguments[ParserTests.tag], ["a", "b", "c", "d"])
        XCTAssertEqual(arguments[ParserTests.tag].last, "d")
        XCTAssertTrue(arguments.isGiven(ParserTests.tag))
        XCTAssertFalse(arguments.isGiven(ParserTests.due))
        XCTAssertEqual((arguments[ParserTests.due].map { [$0] } ?? []), [])
    }

    func testASingleValuedOptionGivenTwiceIsAUsageError() {
        assertUsageError(["todo", "add", "x", "--due", "a", "--due", "b"], mentions: "'--due' given twice")
    }

    func testExclusiveOptionsAreAUsageErrorTogether() throws {
        assertUsageError(["todo", "add", "x", "--all", "--done"], mentions: "--all, --done cannot be used together",
                         path: ["todo", "add"])
        assertUsageError(["todo", "add", "x", "-ad"], mentions: "cannot be used together")
        XCTAssertTrue(try parse("todo", "add", "x", "--all").arguments[ParserTests.all])
        XCTAssertTrue(try parse("todo", "add", "x", "--done").arguments[ParserTests.done])
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
        XCTAssertEqual(try parse("todo", "add", "x", "-p", "1").arguments[ParserTests.priority], 1)
        XCTAssertEqual(try parse("todo", "add", "x", "-p", "5").arguments[ParserTests.priority], 5)
        for bad in ["0", "6", "-1", "x", "3.5", "", " 3", "99999999999999999999"] {
            assertUsageError(["todo", "add", "x", "--priority", bad], mentions: "invalid value '\(bad)' for '--priority'")
        }
        assertUsageError(["todo", "add", "x", "-p", "6"], mentions: "expected 1 to 5")
        assertUsageError(["todo", "add", "x", "-p", "x"], mentions: "expected a whole number")
    }

    func testChoiceOptionsAcceptOnlyTheirWords() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "--sort", "created").arguments[ParserTests.sort], "created")
        assertUsageError(["todo", "add", "x", "--sort", "size"], mentions: "expected one of due, created")
        assertUsageError(["todo", "add", "x", "--sort", "DUE"], mentions: "expected one of due, created")
    }

    func testIntegerPositionalsAreCheckedAgainstTheirRange() throws {
        let arguments = try parse("todo", "move", "7", "-3", "note").arguments
        XCTAssertEqual(arguments[ParserTests.id], 7)
        XCTAssertEqual(arguments[ParserTests.offset], -3)
        XCTAssertEqual(arguments[ParserTests.note], "note")
        assertUsageError(["todo", "move", "0", "1"], mentions: "invalid ID '0'")
        assertUsageError(["todo", "move", "1001", "1"], mentions: "invalid ID '1001'")
        assertUsageError(["todo", "move", "seven", "1"], mentions: "expected a whole number")
        assertUsageError(["todo", "move", "1", "-101"], mentions: "invalid OFFSET '-101'")
    }

    // MARK: Positionals

    func testNegativeNumbersArePositionalsNotOptions() throws {
        XCTAssertEqual(try parse("todo", "move", "5", "-100").arguments[ParserTests.offset], -100)
        XCTAssertEqual(try parse("todo", "add", "-2.5", "-1").arguments[ParserTests.title], ["-2.5", "-1"])
        assertUsageError(["todo", "move", "5", "-x"], mentions: "unknown option '-x'")
    }

    func testMissingPositionalsAreUsageErrors() {
        assertUsageError(["todo", "add"], mentions: "missing TITLE", path: ["todo", "add"])
        assertUsageError(["todo", "move"], mentions: "missing ID")
        assertUsageError(["todo", "move", "1"], mentions: "missing OFFSET")
    }

    func testOptionalPositionalsMayBeLeftOut() throws {
        XCTAssertNil(try parse("todo", "move", "1", "2").arguments[ParserTests.note])
    }

    func testUnexpectedPositionalsAreUsageErrors() {
        assertUsageError(["todo", "list", "extra"], mentions: "unexpected argument 'extra'", path: ["todo", "list"])
        assertUsageError(["status", "now"], mentions: "unexpected argument 'now'")
        assertUsageError(["todo", "move", "1", "2", "note", "more"], mentions: "unexpected argument 'more'")
    }

    // MARK: --

    func testDoubleDashEndsOptions() throws {
        let invocation = try parse("todo", "add", "--", "--due", "-p", "--json", "--help")
        XCTAssertEqual(invocation.arguments[ParserTests.title], ["--due", "-p", "--json", "--help"])
        XCTAssertFalse(invocation.arguments.isGiven(ParserTests.due))
        XCTAssertFalse(invocation.globals[ParserTests.json])
        XCTAssertFalse(invocation.wantsHelp)
        XCTAssertEqual(try parse("todo", "move", "1", "2", "--", "-x").arguments[ParserTests.note], "-x")
    }

    func testADoubleDashAloneAddsNothing() throws {
        XCTAssertEqual(try parse("todo", "add", "x", "--").arguments[ParserTests.title], ["x"])
        assertUsageError(["todo", "add", "--"], mentions: "missing TITLE")
    }

    func testWordsAfterADoubleDashAreNotCommands() {
        assertUsageError(["--", "todo"], mentions: "unexpected argument 'todo'", path: [])
    }

    // MARK: Global options

    func testGlobalOptionsAreAcceptedBeforeBetweenAndAfterCommands() throws {
        for arguments in [["--json", "todo", "list"], ["todo", "--json", "list"], ["todo", "list", "--json"]] {
            let invocation = try parser.parse(arguments)
            XCTAssertTrue(invocation.globals[ParserTests.json], "\(arguments)")
            XCTAssertEqual(invocation.path, ["todo", "list"], "\(arguments)")
        }
    }

    func testEveryGlobalOptionIsRecorded() throws {
        let invocation = try parse("--home", "/tmp/h", "status", "--lang", "ko", "--no-color", "--json")
        let globals = invocation.globals
        XCTAssertEqual(globals[ParserTests.home], "/tmp/h")
        XCTAssertEqual(globals[ParserTests.lang], "ko")
        XCTAssertTrue(globals[ParserTests.noColor])
        XCTAssertTrue(globals[ParserTests.json])
        XCTAssertFalse(invocation.wantsHelp)
        XCTAssertFalse(invocation.wantsVersion)
        XCTAssertEqual(try parse("status", "--home=/x y").globals[ParserTests.home], "/x y")
        let bare = try parse().globals
        XCTAssertNil(bare[ParserTests.home])
        XCTAssertFalse(bare[ParserTests.json])
    }

    func testTheLanguageMustBeKoOrEn() {
        assertUsageError(["status", "--lang", "fr"], mentions: "invalid value 'fr' for '--lang'")
    }

    // MARK: --help and --version

    func testHelpShortCircuitsEveryOtherCheck() throws {
        for arguments in [["todo", "add", "--help"], ["todo", "add", "-h"], ["todo", "add", "--bogus", "--help"],
                          ["todo", "add", "x", "-p", "99", "--help"], ["--help", "todo", "add", "--all", "--done"],
                          ["todo", "add", "--lang", "fr", "-h"]] {
            let invocation: Invocation<Void>
            do {
                invocation = try parser.parse(arguments)
            } catch {
                XCTFail("\(arguments): \(error)")
                continue
            }
            XCTAssertEqual(invocation.path, ["todo", "add"], "\(arguments)")
            XCTAssertTrue(invocation.wantsHelp, "\(arguments)")
        }
        XCTAssertTrue(try parse("todo", "--help").wantsHelp)
    }

    func testHelpForACommandThatDoesNotExistIsAUsageErrorNotAnotherCommandsHelp() {
        assertUsageError(["frobnicate", "--help"], mentions: "unknown command 'frobnicate'", path: [])
        assertUsageError(["todo", "frob", "-h"], mentions: "unknown command 'frob'", path: ["todo"])
    }

    func testVersionShortCircuitsToo() throws {
        XCTAssertTrue(try parse("--version").wantsVersion)
        XCTAssertTrue(try parse("todo", "--version").wantsVersion)
        XCTAssertTrue(try parse("todo", "move", "x", "--version").wantsVersion)
    }

    // MARK: Decoding while parsing

    func testValuesAreDecodedToTheirKeysTypes() throws {
        let arguments = try parse("todo", "check", "--level", "high", "--even", "4").arguments
        XCTAssertEqual(arguments[ParserTests.level], .high)
        XCTAssertEqual(arguments[ParserTests.even], 4)
        XCTAssertEqual(try parse("todo", "move", "7", "-3").arguments[ParserTests.id], Int64(7))
    }

    func testADecodersOwnUsageMessageIsTheOneShown() {
        assertUsageError(["todo", "check", "--level", "low", "--even", "3"], mentions: "'3' is not an even number",
                         path: ["todo", "check"])
    }

    func testARequiredOptionMustBeGiven() {
        assertUsageError(["todo", "check"], mentions: "missing --level low|high", path: ["todo", "check"])
        assertUsageError(["todo", "check", "--level", "medium"], mentions: "expected one of low, high")
    }

    func testARequiredOptionIsNotRequiredForHelp() throws {
        XCTAssertTrue(try parse("todo", "check", "--help").wantsHelp)
    }

    func testIsGivenTellsAnOptionLeftOutFromOneGiven() throws {
        XCTAssertTrue(try parse("todo", "list", "--limit", "3").arguments.isGiven(ParserTests.limit))
        XCTAssertFalse(try parse("todo", "list").arguments.isGiven(ParserTests.limit))
        XCTAssertFalse(try parse("todo", "add", "x").arguments.isGiven(ParserTests.due))
        XCTAssertTrue(try parse("todo", "add", "x", "-a").arguments.isGiven(ParserTests.all))
    }
}
