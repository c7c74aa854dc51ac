import MemoCore
import Onboarding
import XCTest

/// Every action from every page, before and after completion.
final class OnboardingFlowTests: XCTestCase {
    private let pages = 1...4

    private func flow(on page: Int, completed: Bool = false) -> OnboardingFlow {
        OnboardingFlow(pageCount: 4, currentPage: page, isCompleted: completed)
    }

    // MARK: The start

    func testAFreshFlowShowsPageOneOfFourNotCompleted() {
        let flow = OnboardingFlow()
        XCTAssertEqual(flow.pageCount, 4)
        XCTAssertEqual(flow.currentPage, 1)
        XCTAssertFalse(flow.isCompleted)
        XCTAssertTrue(flow.isOnFirstPage)
        XCTAssertFalse(flow.isOnLastPage)
    }

    func testAPageOutsideTheRangeIsClampedWhenRestored() {
        XCTAssertEqual(OnboardingFlow(currentPage: 0).currentPage, 1)
        XCTAssertEqual(OnboardingFlow(currentPage: -3).currentPage, 1)
        XCTAssertEqual(OnboardingFlow(currentPage: 9).currentPage, 4)
        XCTAssertEqual(OnboardingFlow(currentPage: Int.max).currentPage, 4)
    }

    // MARK: Next and previous

    func testNextMovesForwardAndStopsAtTheLastPage() throws {
        for page in pages {
            for completed in [false, true] {
                let after = try flow(on: page, completed: completed).applying(.next)
                XCTAssertEqual(after.currentPage, min(page + 1, 4), "next from \(page)")
                XCTAssertEqual(after.isCompleted, completed, "next keeps completion")
            }
        }
    }

    func testPreviousMovesBackAndStopsAtTheFirstPage() throws {
        for page in pages {
            for completed in [false, true] {
                let after = try flow(on: page, completed: completed).applying(.previous)
                XCTAssertEqual(after.currentPage, max(page - 1, 1), "previous from \(page)")
                XCTAssertEqual(after.isCompleted, completed, "previous keeps completion")
            }
        }
    }

    func testNextOnTheLastPageAndPreviousOnTheFirstChangeNothing() throws {
        XCTAssertEqual(try flow(on: 4).applying(.next), flow(on: 4))
        XCTAssertEqual(try flow(on: 1).applying(.previous), flow(on: 1))
    }

    // MARK: Go to

    func testGoToReachesEveryPageFromEveryPage() throws {
        for page in pages {
            for target in pages {
                let after = try flow(on: page).applying(.goTo(target))
                XCTAssertEqual(after.currentPage, target, "goto \(target) from \(page)")
                XCTAssertFalse(after.isCompleted)
            }
        }
    }

    func testGoToOutsideTheRangeIsAUsageError() {
        for page in pages {
            for target in [0, 5, -1, 100, Int.max, Int.min] {
                assertMemoError(try flow(on: page).applying(.goTo(target)), kind: .usage) { message in
                    XCTAssertTrue(message.en.contains("1 to 4"), message.en)
                    XCTAssertTrue(message.en.contains("\(target)"), message.en)
                    XCTAssertTrue(message.ko.contains("\(target)"), message.ko)
                }
            }
        }
    }

    // MARK: Skip and start

    func testSkipCompletesFromEveryPageAndKeepsThePage() throws {
        for page in pages {
            for completed in [false, true] {
                let after = try flow(on: page, completed: completed).applying(.skip)
                XCTAssertTrue(after.isCompleted, "skip from \(page)")
                XCTAssertEqual(after.currentPage, page)
            }
        }
    }

    func testStartCompletesFromTheLastPage() throws {
        let after = try flow(on: 4).applying(.start)
        XCTAssertTrue(after.isCompleted)
        XCTAssertEqual(after.currentPage, 4)
        XCTAssertTrue(try flow(on: 4, completed: true).applying(.start).isCompleted)
    }

    func testStartBeforeTheLastPageIsRefusedNamingThePageAndHintingAtSkip() {
        for page in 1...3 {
            assertMemoError(try flow(on: page).applying(.start), kind: .invalidState) { message in
                XCTAssertTrue(message.en.contains("page \(page) of 4"), message.en)
                XCTAssertTrue(message.ko.contains("\(page)쪽"), message.ko)
                XCTAssertFalse(message.en.contains("memoapp"), "a front end words the way out: \(message.en)")
            }
            XCTAssertThrowsError(try flow(on: page).applying(.start)) { error in
                XCTAssertEqual((error as? MemoError)?.hint, .skipOnboarding)
            }
        }
    }

    func testARefusedActionLeavesTheFlowAsItWas() {
        let original = flow(on: 2)
        var copy = original
        XCTAssertThrowsError(copy = try original.applying(.start))
        XCTAssertThrowsError(copy = try original.applying(.goTo(7)))
        XCTAssertEqual(copy, original)
    }

    func testApplyingReturnsANewFlowAndKeepsTheOriginal() throws {
        let original = flow(on: 1)
        _ = try original.applying(.next)
        _ = try original.applying(.skip)
        XCTAssertEqual(original, flow(on: 1))
    }

    func testTheWholeTourEndsWithStart() throws {
        var flow = OnboardingFlow()
        for _ in 1...3 { flow = try flow.applying(.next) }
        XCTAssertTrue(flow.isOnLastPage)
        flow = try flow.applying(.start)
        XCTAssertTrue(flow.isCompleted)
    }

    // MARK: The indicator

    func testIndicatorFillsTheDotOfTheCurrentPage() {
        XCTAssertEqual(flow(on: 1).indicator, "●○○○")
        XCTAssertEqual(flow(on: 2).indicator, "○●○○")
        XCTAssertEqual(flow(on: 3).indicator, "○○●○")
        XCTAssertEqual(flow(on: 4).indicator, "○○○●")
    }

    func testASinglePageFlowIsBothFirstAndLast() throws {
        let single = OnboardingFlow(pageCount: 1)
        XCTAssertTrue(single.isOnFirstPage && single.isOnLastPage)
        XCTAssertEqual(try single.applying(.next), single)
        XCTAssertEqual(try single.applying(.previous), single)
        XCTAssertTrue(try single.applying(.start).isCompleted)
        XCTAssertThrowsError(try single.applying(.goTo(2)))
        XCTAssertEqual(single.indicator, "●")
    }

    // MARK: - Helpers

    private func assertMemoError<T>(_ body: @autoclosure () throws -> T, kind: ErrorKind,
                                    file: StaticString = #filePath, line: UInt = #line,
                                    _ check: (Localized) -> Void = { _ in }) {
        do {
            _ = try body()
            XCTFail("expected a MemoError(\(kind))", file: file, line: line)
        } catch let error as MemoError {
            XCTAssertEqual(error.kind, kind, file: file, line: line)
            check(error.message)
        } catch {
            XCTFail("expected a MemoError, got \(error)", file: file, line: line)
        }
    }
}
