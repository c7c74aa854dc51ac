import CommandLineKit
import MemoCore

/// The command tree. A new top-level command is one line here; it is gated by
/// onboarding unless its declaration says `.alwaysRuns`.
enum RootCommand {
    static func make() -> Command {
        Command(
            "memoapp",
            abstract: Localized(en: "memoapp: to-dos, memos, voice memos and timers in your terminal",
                                ko: "memoapp: 할일, 메모, 음성메모, 타이머를 터미널에서"),
            subcommands: [
                OnboardCommand.make(),
                HelpCommand.make(),
                CompletionCommand.make(),
                TodoCommand.make(),
                MemoCommand.make(),
                SearchCommand.make(kinds: [.todo, .memo]),
                TimerCommand.make(),
                VoiceCommand.make(),
                DoctorCommand.make(),
                ExportCommand.make(),
                ImportCommand.make(),
                BackupCommand.make(),
                RestoreCommand.make(),
            ],
            access: .alwaysRuns,
            body: MainScreen.run)
    }
}
