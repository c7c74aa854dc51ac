@testable import MemoCLI
import XCTest

/// `--color=auto|always|never` and what `auto` looks at.
final class ColorChoiceTests: XCTestCase {
    func testAutoColoursOnlyATerminalThatShowsColour() {
        XCTAssertTrue(ColorChoice.auto.isColorEnabled(isOutputTerminal: true, environment: ["TERM": "xterm"]))
        XCTAssertTrue(ColorChoice.auto.isColorEnabled(isOutputTerminal: true, environment: [:]))
        XCTAssertFalse(ColorChoice.auto.isColorEnabled(isOutputTerminal: false, environment: ["TERM": "xterm"]))
        XCTAssertFalse(ColorChoice.auto.isColorEnabled(isOutputTerminal: true, environment: ["TERM": "dumb"]))
        XCTAssertFalse(ColorChoice.auto.isColorEnabled(isOutputTerminal: true, environment: ["NO_COLOR": "1"]))
        XCTAssertTrue(ColorChoice.auto.isColorEnabled(isOutputTerminal: true, environment: ["NO_COLOR": ""]),
                      "no-color.org: an empty NO_COLOR does not count")
    }

    func testAlwaysAndNeverIgnoreTheTerminalAndTheEnvironment() {
        for terminal in [true, false] {
            for environment in [[:], ["TERM": "dumb"], ["NO_COLOR": "1"]] {
                XCTAssertTrue(ColorChoice.always.isColorEnabled(isOutputTerminal: terminal, environment: environment))
                XCTAssertFalse(ColorChoice.never.isColorEnabled(isOutputTerminal: terminal, environment: environment))
            }
        }
    }

    private func onboardPages(_ arguments: [String], terminal: Bool, environment: [String: String] = [:]) -> AppRun {
        let app = TestApp()
        app.environment.merge(environment) { $1 }
        let streams = RecordingStreams()
        streams.isOutputTerminal = terminal
        return app.run(["onboard", "pages"] + arguments, streams: streams)
    }

    func testTheFlagReachesTheOutput() {
        XCTAssertTrue(onboardPages(["--color=always"], terminal: false).stdout.contains("\u{1B}[1m"))
        XCTAssertTrue(onboardPages(["--color", "always"], terminal: false).stdout.contains("\u{1B}[1m"))
        XCTAssertFalse(onboardPages(["--color=never"], terminal: true).stdout.contains("\u{1B}"))
        XCTAssertFalse(onboardPages([], terminal: true, environment: ["TERM": "dumb"]).stdout.contains("\u{1B}"))
        XCTAssertFalse(onboardPages(["--color=always", "--no-color"], terminal: false).stdout.contains("\u{1B}"))
    }

    func testAnUnknownChoiceIsAUsageError() {
        let run = onboardPages(["--color=sometimes"], terminal: false)
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stdout.isEmpty)
    }
}
