import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// Every module's migrations, in the order they apply. Each module owns its
/// tables; this list only composes them into memoapp's one database.
public enum Schema {
    public static let migrator: Migrator = {
        var migrator = Migrator()
        migrator.register(OnboardingStore.migrations)
        migrator.register(NotesSchema.migrations)
        migrator.register(TimerStore.migrations)
        migrator.register(VoiceStore.migrations)
        migrator.register(AccessTokens.migrations)
        migrator.register(WebSessions.migrations)
        migrator.register(DeviceCodes.migrations)
        migrator.register(ReminderLedger.migrations)
        migrator.register(FeatureLinks.migrations)
        // Last: its triggers are made from the columns the tables above have.
        // A later migration that changes a logged table's columns must be
        // followed by one that makes that table's undo triggers again.
        migrator.register(UndoSchema.migrations)
        // After every table it logs exists; it adds triggers to other
        // modules' tables, as the undo history does.
        migrator.register(ChangeLog.migrations)
        // After the change log, whose pause its bumps obey, and remaking
        // the undo triggers that carry them.
        migrator.register(Revisions.migrations)
        // After the undo triggers it adds the removal record to.
        migrator.register(SyncSchema.migrations)
        return migrator
    }()
}
