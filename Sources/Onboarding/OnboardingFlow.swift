import MemoCore

/// Something the user can do on an onboarding page.
public enum OnboardingAction: Equatable, Sendable {
    /// Swipe forward; nothing beyond the last page.
    case next
    /// Swipe back; nothing before the first page.
    case previous
    /// Tap a dot of the page indicator (1-based).
    case goTo(Int)
    /// Finish at once, from any page.
    case skip
    /// The Start button, which exists on the last page only.
    case start
}

/// The onboarding as a pure state machine: which page shows, and whether the
/// user has finished. It knows no database, clock or terminal.
public struct OnboardingFlow: Equatable, Sendable {
    public let pageCount: Int
    /// 1-based.
    public private(set) var currentPage: Int
    public private(set) var isCompleted: Bool

    public init(pageCount: Int = OnboardingPage.all.count, currentPage: Int = 1, isCompleted: Bool = false) {
        precondition(pageCount > 0, "an onboarding has pages")
        self.pageCount = pageCount
        self.currentPage = min(max(currentPage, 1), pageCount)
        self.isCompleted = isCompleted
    }

    public var isOnLastPage: Bool { currentPage == pageCount }
    public var isOnFirstPage: Bool { currentPage == 1 }

    /// The flow after `action`. Refusals throw: a page outside 1…pageCount is a
    /// usage error; Start anywhere but the last page is not allowed there.
    public func applying(_ action: OnboardingAction) throws -> OnboardingFlow {
        var flow = self
        switch action {
        case .next:
            flow.currentPage = min(currentPage + 1, pageCount)
        case .previous:
            flow.currentPage = max(currentPage - 1, 1)
        case let .goTo(page):
            guard (1...pageCount).contains(page) else {
                throw MemoError(.usage, en: "page must be 1 to \(pageCount), not \(page)",
                                ko: "페이지는 1부터 \(pageCount)까지입니다 (\(page) 아님)")
            }
            flow.currentPage = page
        case .skip:
            flow.isCompleted = true
        case .start:
            guard isOnLastPage else {
                throw MemoError(
                    .invalidState, hint: .skipOnboarding,
                    en: "Start is on the last page only; this is page \(currentPage) of \(pageCount)",
                    ko: "시작하기는 마지막 페이지에만 있습니다. 지금은 \(pageCount)쪽 중 \(currentPage)쪽입니다")
            }
            flow.isCompleted = true
        }
        return flow
    }

    /// The dot indicator, e.g. `●○○○` on page 1.
    public var indicator: String {
        (1...pageCount).map { $0 == currentPage ? "●" : "○" }.joined()
    }
}

extension MemoError.Hint {
    /// Skipping finishes the onboarding from any page.
    public static let skipOnboarding = MemoError.Hint(rawValue: "skip_onboarding")
}
