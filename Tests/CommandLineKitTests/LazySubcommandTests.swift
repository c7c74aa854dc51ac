import CommandLineKit
import MemoCore
import XCTest

/// Subcommands declared with `later` are built when the command line reaches
/// them, so a run pays for its own command only.
final class LazySubcommandTests: XCTestCase {
    typealias Command = CommandLineKit.Command<Void>

    final class Built: @unchecked Sendable { var names: [String] = [] }

    private func tree(_ built: Built) -> Parser<Void> {
        func leaf(_ name: String) -> Command {
            built.names.append(name)
            return Command(name, abstract: Localized(verbatim: name), body: { _, _ in })
        }
        let root = Command("app", abstract: Localized(verbatim: "app"),
                           subcommands: [.later("alpha") { leaf("alpha") }, .later("beta") { leaf("beta") }],
                           access: .alwaysRuns, body: { _, _ in })
        return Parser(root: root, globalOptions: [])
    }

    func testOnlyTheCommandOnTheLineIsBuilt() throws {
        let built = Built()
        let invocation = try tree(built).parse(["beta"])
        XCTAssertEqual(invocation.path, ["beta"])
        XCTAssertEqual(built.names, ["beta"])
    }

    func testAnUnknownNameBuildsNothing() {
        let built = Built()
        XCTAssertThrowsError(try tree(built).parse(["gamma"]))
        XCTAssertEqual(built.names, [])
    }

    func testListingTheSubcommandsBuildsEachOnce() {
        let built = Built()
        let parser = tree(built)
        XCTAssertEqual(parser.root.subcommands.map { $0.name }, ["alpha", "beta"])
        XCTAssertEqual(parser.root.subcommands.map { $0.abstract.en }, ["alpha", "beta"])
        XCTAssertEqual(built.names, ["alpha", "beta"], "built once, then kept")
        XCTAssertTrue(parser.root.hasSubcommands)
    }
}
