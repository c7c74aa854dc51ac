import MemoCore
import Onboarding

extension WireFormat {
    /// Where the onboarding stands: `{"current_page", "page_count",
    /// "completed", "completed_at"}`.
    public static func onboarding(_ state: OnboardingState) -> JSON {
        .object([
            ("current_page", .int(state.flow.currentPage)),
            ("page_count", .int(state.flow.pageCount)),
            ("completed", .bool(state.isCompleted)),
            ("completed_at", .optional(state.completedAt)),
        ])
    }

    /// One onboarding page in `language`: `{"index", "title", "subtitle"}`.
    public static func onboardingPage(_ page: OnboardingPage, in language: Language) -> JSON {
        .object([
            ("index", .int(page.number)),
            ("title", .string(page.title.text(in: language))),
            ("subtitle", .string(page.subtitle.text(in: language))),
        ])
    }
}
