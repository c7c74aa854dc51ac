import CommandLineKit
import MemoAPI
import MemoCore
import Onboarding

/// `memoapp onboard …`: the first-run onboarding, interactive on a terminal and
/// step by step through subcommands elsewhere.
enum OnboardCommand {
    static let page = Argument<Int>("N", kind: .integer(1...OnboardingPage.all.count),
                                    help: Localized(en: "page number", ko: "페이지 번호")) { Int($0) ?? 1 }

    static func make() -> Command {
        Command(
            "onboard",
            abstract: Localized(en: "the first-run onboarding (four pages)", ko: "첫 실행 온보딩 (네 페이지)"),
            subcommands: [
                Command("status", abstract: Localized(en: "current page and whether onboarding is completed",
                                                      ko: "현재 페이지와 완료 여부"),
                        body: { context, _ in try showStatus(context) }),
                Command("pages", abstract: Localized(en: "every page, for a front end to render",
                                                     ko: "모든 페이지 (앱 화면용)"),
                        body: { context, _ in try showAllPages(context) }),
                Command("show", abstract: Localized(en: "print every page (the tour); changes nothing",
                                                    ko: "모든 페이지 보기 (변경 없음)"),
                        body: { context, _ in try showAllPages(context) }),
                Command("next", abstract: Localized(en: "go to the next page", ko: "다음 페이지로"),
                        body: { context, _ in try move(context, .next) }),
                Command("prev", abstract: Localized(en: "go to the previous page", ko: "이전 페이지로"),
                        body: { context, _ in try move(context, .previous) }),
                Command("goto", abstract: Localized(en: "go to page N (1-4)", ko: "N쪽으로 이동 (1-4)"),
                        positionals: [page],
                        body: { context, arguments in try move(context, .goTo(arguments[page])) }),
                Command("start", abstract: Localized(en: "finish, from the last page", ko: "마지막 페이지에서 시작하기"),
                        body: { context, _ in try move(context, .start) }),
                Command("skip", abstract: Localized(en: "finish now, from any page", ko: "지금 바로 마치기"),
                        body: { context, _ in try move(context, .skip) }),
                Command("reset", abstract: Localized(en: "back to not onboarded, page 1", ko: "처음 상태로 되돌리기"),
                        body: { context, _ in try reset(context) }),
            ],
            access: .alwaysRuns,
            body: { context, _ in
                if context.isInputTerminal, context.isOutputTerminal, !context.isJSON {
                    try runInteractive(context)
                } else {
                    try showCurrent(context)
                }
            })
    }

    // MARK: - Subcommands

    static func showStatus(_ context: CommandContext) throws {
        let state = try store(context).state()
        let flow = state.flow
        let done = state.completedAt.map { $0.localMinute }
        let text = context.text(
            en: "Page \(flow.currentPage) of \(flow.pageCount) \(flow.indicator)\n"
                + (done.map { "Completed: \($0)" } ?? "Not completed"),
            ko: "\(flow.pageCount)쪽 중 \(flow.currentPage)쪽 \(flow.indicator)\n"
                + (done.map { "완료: \($0)" } ?? "완료 전"))
        try context.emit(json: WireFormat.onboarding(state), text: text)
    }

    static func showAllPages(_ context: CommandContext) throws {
        let pages = OnboardingPage.all
        let text = pages.map { page in
            "\(page.number). " + context.style.bold(context.text(page.title)) + "\n   " + context.text(page.subtitle)
        }.joined(separator: "\n")
        try context.emit(json: .array(pages.map { WireFormat.onboardingPage($0, in: context.language) }), text: text)
    }

    static func move(_ context: CommandContext, _ action: OnboardingAction) throws {
        let state = try store(context).apply(action, at: context.clock.now())
        try context.emit(json: WireFormat.onboarding(state), text: describe(state, context))
    }

    static func reset(_ context: CommandContext) throws {
        let state = try store(context).reset()
        try context.emit(json: WireFormat.onboarding(state), text: describe(state, context))
    }

    /// Not on a terminal: the current page and what to run next.
    static func showCurrent(_ context: CommandContext) throws {
        let state = try store(context).state()
        try context.emit(json: WireFormat.onboarding(state), text: describe(state, context))
    }

    // MARK: - Rendering

    static func store(_ context: CommandContext) throws -> OnboardingStore {
        try context.workspace.onboardingStore()
    }

    static func describe(_ state: OnboardingState, _ context: CommandContext) -> TerminalText {
        if state.isCompleted {
            return TerminalText(context.text(en: "Onboarding completed. Run 'memoapp' to see the main screen.",
                                ko: "온보딩을 마쳤습니다. 'memoapp'으로 메인 화면을 보세요."))
        }
        let flow = state.flow
        let page = OnboardingPage.all[flow.currentPage - 1]
        var lines: [TerminalText] = [
            "\(flow.indicator)  \(flow.currentPage)/\(flow.pageCount)",
            context.style.bold(context.text(page.title)),
            TerminalText(context.text(page.subtitle)),
            "",
        ]
        if flow.isOnLastPage {
            lines.append(TerminalText(context.text(en: "Next: 'memoapp onboard start' to begin.",
                                                   ko: "다음: 'memoapp onboard start'로 시작하세요.")))
        } else {
            lines.append(TerminalText(context.text(
                en: "Next: 'memoapp onboard next', or 'memoapp onboard skip' to finish now.",
                ko: "다음: 'memoapp onboard next', 바로 마치려면 'memoapp onboard skip'.")))
        }
        return lines.joined(separator: "\n")
    }
}
