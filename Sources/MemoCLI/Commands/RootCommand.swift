import CommandLineKit
import MemoCore

/// The command tree. A new top-level command is one line here; it is gated by
/// onboarding unless its declaration says `.alwaysRuns`. Each is built only
/// when the command line reaches it, so a run pays for its own command only.
enum RootCommand {
    static func make() -> Command {
        Command(
            "memoapp",
            abstract: Localized(en: "memoapp: to-dos, memos, voice memos and timers in your terminal",
                                ko: "memoapp: 할 일, 메모, 음성 메모, 타이머를 터미널에서"),
            subcommands: [
                .later("onboard", OnboardCommand.make),
                .later("help", HelpCommand.make),
                .later("completion", CompletionCommand.make),
                .later("todo", TodoCommand.make),
                .later("memo", MemoCommand.make),
                .later("search") { SearchCommand.make(kinds: [.todo, .memo]) },
                .later("timer", TimerCommand.make),
                .later("remind", RemindCommand.make),
                .later("voice", VoiceCommand.make),
                .later("doctor", DoctorCommand.make),
                .later("export", ExportCommand.make),
                .later("import", ImportCommand.make),
                .later("undo", UndoCommand.make),
                .later("sync", SyncCommand.make),
                .later("backup", BackupCommand.make),
                .later("restore", RestoreCommand.make),
                .later("token", TokenCommand.make),
                .later("serve", ServeCommand.make),
            ],
            access: .alwaysRuns,
            body: MainScreen.run)
    }
}
