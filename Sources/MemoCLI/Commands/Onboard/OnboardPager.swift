import CommandLineKit
import MemoCore
import Onboarding

/// The interactive onboarding on a terminal: one page at a time, with the dot
/// indicator and the keys of the original app's swipes, dots and buttons.
/// It is drawn for the terminal's width at each key, after a resize, and
/// after coming back from Ctrl-Z; at the end it shows the main screen.
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
                try context.write(screen(for: state, width: context.terminalWidth ?? 80, context))
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
            case .home: command = OnboardingCommand(key: .home, flow: state.flow)
            case .end: command = OnboardingCommand(key: .end, flow: state.flow)
            case .pageUp: command = OnboardingCommand(key: .pageUp, flow: state.flow)
            case .pageDown: command = OnboardingCommand(key: .pageDown, flow: state.flow)
            case .interrupt, .escape, .endOfInput: command = .quit
            case .suspend:
                // Keys typed before Ctrl-Z in the same read were meant for this
                // screen; anything after it is dropped with the rest on `fg`.
                pending.removeAll()
                terminal.suspend()
                continue
            case .redraw, .other: command = .ignore
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
                    try context.write(context.style.bold(context.text(en: "Onboarding completed.",
                                                                      ko: "온보딩을 마쳤습니다.")) + "\n\n")
                    try MainScreen.showMain(context)
                    return
                }
            }
        }
    }

    /// One full screen for a terminal `width` columns wide: clear, title,
    /// subtitle, indicator, and every key the page accepts, each wrapped
    /// under a two-space indent.
    static func screen(for state: OnboardingState, width: Int, _ context: CommandContext) -> TerminalText {
        let flow = state.flow
        let page = OnboardingPage.all[flow.currentPage - 1]
        let style = TextStyle(isEnabled: context.isColorEnabled)
        let indent = "  "
        let room = max(10, width - indent.count)
        func wrapped(_ text: String, _ styled: (TerminalText) -> TerminalText = { $0 }) -> [TerminalText] {
            TextWrapping.lines(text, width: room).map { TerminalText(indent) + styled(TerminalText(line: $0)) }
        }
        var lines: [TerminalText] = [""]
        lines += wrapped(context.text(page.title), style.bold)
        lines.append("")
        lines += wrapped(context.text(page.subtitle))
        lines.append("")
        lines += wrapped(flow.indicator + "  \(flow.currentPage)/\(flow.pageCount)")
        lines.append("")
        for keys in keyHelp(flow, context) {
            lines += wrapped(keys, style.dim)
        }
        // Raw mode may leave the line break without its carriage return.
        let lineBreak = TerminalText(.carriageReturn) + "\n"
        return TerminalText(.clearScreen) + lines.joined(separator: lineBreak) + lineBreak
    }

    /// Every key the pager accepts, a line each, as the flow's page allows.
    static func keyHelp(_ flow: OnboardingFlow, _ context: CommandContext) -> [String] {
        var lines: [String] = []
        if flow.isOnLastPage {
            lines.append(context.text(en: "[Enter] Start", ko: "[Enter] 시작하기"))
        } else {
            lines.append(context.text(en: "[→ n l Space PgDn Enter] Next   [s] Skip",
                                      ko: "[→ n l 스페이스 PgDn Enter] 다음   [s] 건너뛰기"))
        }
        lines.append(context.text(en: "[← p h PgUp] Previous   [Home] first   [End] last   [1-\(flow.pageCount)] page",
                                  ko: "[← p h PgUp] 이전   [Home] 처음   [End] 마지막   [1-\(flow.pageCount)] 페이지"))
        lines.append(context.text(en: "[q Esc Ctrl-C] Quit   [Ctrl-Z] Suspend (fg to come back)",
                                  ko: "[q Esc Ctrl-C] 나가기   [Ctrl-Z] 잠시 멈춤 (fg로 돌아옴)"))
        return lines
    }
}
