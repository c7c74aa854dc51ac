import CommandLineKit
import MemoAPI
import MemoCore
import MemoKit
import Onboarding

/// Bare `memoapp`: the splash, then the route the original app takes: the
/// onboarding until it is completed, the main screen after.
enum MainScreen {
    /// A part of the main screen: a JSON member and its text.
    struct Section {
        let key: String
        let json: JSON
        let text: TerminalText
    }

    /// The main screen's sections, in order. A feature adds its own here.
    static let sectionMakers: [(CommandContext) throws -> Section] = [
        dataHomeSection,
        NotesMainScreen.section,
        VoiceMainScreen.section,
        timersSection,
    ]

    static func run(_ context: CommandContext, _ arguments: ParsedArguments) throws {
        if !context.isJSON {
            let splash = context.style.bold("memoapp") + " " + Version.current + "  "
                + context.style.dim(context.text(en: "to-dos · memos · voice memos · timers", ko: "할 일 · 메모 · 음성 메모 · 타이머"))
            // Item lines and the splash are cut to the terminal, as a list's
            // rows are; hints wrap, so a command in them is never cut.
            try context.write((context.tableWidth.map { splash.truncated(toWidth: $0) } ?? splash) + "\n\n")
        }
        switch Route(isOnboardingCompleted: try OnboardingGate.isOpen(context.workspace)) {
        case .onboarding:
            if context.isInputTerminal, context.isOutputTerminal, !context.isJSON {
                try OnboardCommand.runInteractive(context)
                return
            }
            throw MemoError(.onboardingRequired, hint: .completeOnboarding,
                            en: "welcome! finish the onboarding first", ko: "환영합니다! 먼저 온보딩을 마치세요")
        case .main:
            try showMain(context)
        }
    }

    /// The main screen itself, once the onboarding is completed (bare
    /// `memoapp`, and the pager's last step).
    static func showMain(_ context: CommandContext) throws {
        let sections = try sectionMakers.map { try $0(context) }
        try context.emit(json: .object(sections.map { ($0.key, $0.json) }),
                         text: sections.map { $0.text.trimmingLineBreaks }.joined(separator: "\n\n"))
    }

    static func dataHomeSection(_ context: CommandContext) throws -> Section {
        let onboarding = try context.workspace.onboardingStore().state()
        let since = onboarding.completedAt.map { $0.localMinute } ?? "-"
        let text = context.text(en: "Data home: \(line: context.home.path)\nOnboarded: \(since)",
                                ko: "데이터 폴더: \(line: context.home.path)\n온보딩 완료: \(since)")
        return Section(key: "home", json: WireFormat.homeOverview(path: context.home.path,
                                                                  onboardedAt: onboarding.completedAt), text: text)
    }
}
