import Onboarding
import XCTest

/// Every key of the pager from every page.
final class OnboardingCommandTests: XCTestCase {
    private let pages = 1...4

    private func command(_ key: OnboardingKey, on page: Int) -> OnboardingCommand {
        OnboardingCommand(key: key, flow: OnboardingFlow(currentPage: page))
    }

    func testNextKeysMeanNextOnEveryPage() {
        for page in pages {
            XCTAssertEqual(command(.rightArrow, on: page), .act(.next), "→ on \(page)")
            for letter: Character in ["l", "n", " "] {
                XCTAssertEqual(command(.character(letter), on: page), .act(.next), "'\(letter)' on \(page)")
            }
        }
    }

    func testPreviousKeysMeanPreviousOnEveryPage() {
        for page in pages {
            XCTAssertEqual(command(.leftArrow, on: page), .act(.previous), "← on \(page)")
            for letter: Character in ["h", "p"] {
                XCTAssertEqual(command(.character(letter), on: page), .act(.previous), "'\(letter)' on \(page)")
            }
        }
    }

    func testDigitsOneToFourGoToThatPageFromEveryPage() {
        for page in pages {
            for digit in 1...4 {
                XCTAssertEqual(command(.character(Character("\(digit)")), on: page), .act(.goTo(digit)),
                               "'\(digit)' on \(page)")
            }
        }
    }

    func testOtherDigitsAreIgnored() {
        for page in pages {
            for digit: Character in ["0", "5", "6", "9", "３", "５", "٣", "½"] {
                XCTAssertEqual(command(.character(digit), on: page), .ignore, "'\(digit)' on \(page)")
            }
        }
    }

    func testSSkipsFromEveryPage() {
        for page in pages {
            XCTAssertEqual(command(.character("s"), on: page), .act(.skip))
        }
    }

    func testQAndInterruptQuitFromEveryPage() {
        for page in pages {
            XCTAssertEqual(command(.character("q"), on: page), .quit)
            XCTAssertEqual(command(.interrupt, on: page), .quit)
        }
    }

    func testHomeAndEndGoToTheEndsAndThePageKeysTurnPages() {
        for page in pages {
            XCTAssertEqual(command(.home, on: page), .act(.goTo(1)))
            XCTAssertEqual(command(.end, on: page), .act(.goTo(4)))
            XCTAssertEqual(command(.pageDown, on: page), .act(.next))
            XCTAssertEqual(command(.pageUp, on: page), .act(.previous))
        }
    }

    func testEnterIsNextBeforeTheLastPageAndStartOnIt() {
        for page in 1...3 {
            XCTAssertEqual(command(.enter, on: page), .act(.next), "Enter on \(page)")
        }
        XCTAssertEqual(command(.enter, on: 4), .act(.start))
    }

    func testOtherKeysAreIgnoredOnEveryPage() {
        let others: [OnboardingKey] = [.other] + ["x", "a", "z", "-", "\t", "가", "😀", "é"].map { .character($0) }
        for page in pages {
            for key in others {
                XCTAssertEqual(command(key, on: page), .ignore, "\(key) on \(page)")
            }
        }
    }

    func testEveryActionAKeyProducesIsAcceptedByTheFlow() throws {
        // Whatever key a user presses, the pager never meets a refusal: Start is
        // only offered where the flow accepts it.
        let keys: [OnboardingKey] = [.rightArrow, .leftArrow, .enter, .home, .end, .pageUp, .pageDown, .interrupt, .other]
            + ["l", "n", " ", "h", "p", "s", "q", "1", "2", "3", "4", "5", "x"].map { .character($0) }
        for page in pages {
            let flow = OnboardingFlow(currentPage: page)
            for key in keys {
                if case let .act(action) = OnboardingCommand(key: key, flow: flow) {
                    XCTAssertNoThrow(try flow.applying(action), "\(key) on \(page)")
                }
            }
        }
    }

    func testPressingEnterFourTimesWalksTheTourAndStarts() throws {
        var flow = OnboardingFlow()
        for _ in 1...4 {
            guard case let .act(action) = OnboardingCommand(key: .enter, flow: flow) else {
                return XCTFail("Enter did not act")
            }
            flow = try flow.applying(action)
        }
        XCTAssertTrue(flow.isCompleted)
        XCTAssertEqual(flow.currentPage, 4)
    }
}
