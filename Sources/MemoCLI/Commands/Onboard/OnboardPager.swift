import CommandLineKit
import MemoCore
import Onboarding

/// The interactive onboarding on a terminal: one page at a time, with the dot
/// indicator and the keys of the original app's swipes, dots and buttons.
extension OnboardCommand {
    static func runInteractive(_ context: CommandContext) throws {
        let store = try store(context)
        var state = try store.state()
        if state.isCompleted {
            try context.write(describe(state, context) + "\n")
            return
        }
        try context.flush()
        guard let terminal = RawTerminal() else {
            try showCurrent(context)
            return
        }
        defer { terminal.restore() }
        var pending: [TerminalKey] = []
        while true {
            if pending.isEmpty {
                try context.write(screen(for: state, context))
                try context.flush()
                pending = terminal.readKeys()
            }
            let key = pending.removeFirst()
            let command: OnboardingCommand
            switch key {
            case let .character(character): command = OnboardingCommand(key: .character(character), flow: state.flow)
            case .rightArrow: command = OnboardingCommand(key: .rightArrow, flow: state.flow)
            case .leftArrow: command = OnboardingCommand(key: .leftArrow, flow: state.flow)
            case .enter: command = OnboardingCommand(key: .enter, flow: state.flow)
            case .interrupt, .escape, .endOfInput: command = .quit
            case .other: command = .ignore
            }
            switch command {
            case .ignore:
                continue
            case .quit:
                terminal.restore()
                let page = state.flow.currentPage
                try context.write(context.text(
                    en: "Stopped on page \(page) of \(state.flow.pageCount). Run 'memoapp onboard' to go on.\n",
                    ko: "\(state.flow.pageCount)쪽 중 \(page)쪽에서 멈췄습니다. 'memoapp onboard'로 이어서 하세요.\n"))
                if key == .interrupt { context.exitStatus = 130 }
                return
            case let .act(action):
                state = try store.apply(action, at: context.clock.now())
                if state.isCompleted {
                    terminal.restore()
                    try context.write(describe(state, context) + "\n")
                    return
                }
            }
        }
    }

    /// One full screen: clear, title, subtitle, indicator, and the buttons this page has.
    static func screen(for state: OnboardingState, _ context: CommandContext) -> TerminalText {
        let flow = state.flow
        let page = OnboardingPage.all[flow.currentPage - 1]
        let style = TextStyle(isEnabled: context.environment["NO_COLOR"].map { $0.isEmpty } ?? true)
        let buttons = flow.isOnLastPage
            ? context.text(en: "[Enter] Start   ← previous", ko: "[Enter] 시작하기   ← 이전")
            : context.text(en: "[s] Skip   [→/n/space] Next   ← previous",
                           ko: "[s] 건너뛰기   [→/n/스페이스] 다음   ← 이전")
        let lines: [TerminalText] = [
            "",
            "  " + style.bold(context.text(page.title)),
            "",
            TerminalText("  " + context.text(page.subtitle)),
            "",
            TerminalText("  " + flow.indicator),
            "",
            "  " + style.dim(buttons),
            "  " + style.dim(context.text(en: "[1-4] go to page   [q] quit", ko: "[1-4] 페이지 이동   [q] 나가기")),
        ]
        // Raw mode may leave the line break without its carriage return.
        let lineBreak = TerminalText(.carriageReturn) + "\n"
        return TerminalText(.clearScreen) + lines.joined(separator: lineBreak) + lineBreak
    }
}
