import MemoCore
import Notes
import Onboarding
import SQLite
import Timers
import VoiceMemos

/// The words a shell completion offers that only the data can tell: ids with
/// their titles, and tags. Read only and quick: the database is opened for
/// reading, never created or migrated, and nothing is answered (rather than
/// an error, which would land in the user's command line) when there is no
/// database, onboarding is not completed, or it cannot be read.
public enum CompletionCandidates {
    /// What a completion script asks for.
    public enum Source: String, CaseIterable, Sendable {
        case todos
        case openTodos = "open-todos"
        case doneTodos = "done-todos"
        case memos
        case voiceMemos = "voice-memos"
        case timers
        /// Tags of to-dos and memos.
        case tags
        case voiceTags = "voice-tags"
    }

    /// A word to complete and what the shell shows beside it (may be empty).
    public struct Candidate: Equatable, Sendable {
        public let word: String
        public let description: String

        public init(word: String, description: String = "") {
            self.word = word
            self.description = description
        }
    }

    /// At most this many of each: a menu longer than a screen helps no one,
    /// and the newest come first.
    public static let limit = 200

    public static func candidates(_ source: Source, in home: DataHome) -> [Candidate] {
        guard home.hasDatabase, let connection = try? MemoDatabase.connectReadingOnly(home.databasePath) else { return [] }
        do {
            guard try OnboardingStore(connection: connection).state().isCompleted else { return [] }
            return try candidates(source, in: connection)
        } catch {
            return []
        }
    }

    static func candidates(_ source: Source, in connection: Connection) throws -> [Candidate] {
        func items(_ rows: [(id: Int64, title: String)]) -> [Candidate] {
            rows.map { Candidate(word: String($0.id), description: oneLine($0.title)) }
        }
        switch source {
        case .todos: return items(try NotesCompletion.todos(.any, limit: limit, in: connection))
        case .openTodos: return items(try NotesCompletion.todos(.open, limit: limit, in: connection))
        case .doneTodos: return items(try NotesCompletion.todos(.done, limit: limit, in: connection))
        case .memos: return items(try NotesCompletion.memos(limit: limit, in: connection))
        case .voiceMemos: return items(try VoiceCompletion.memos(limit: limit, in: connection))
        case .timers: return items(try TimerCompletion.timers(limit: limit, in: connection))
        case .tags: return try NotesCompletion.tags(limit: limit, in: connection).map { Candidate(word: oneLine($0)) }
        case .voiceTags: return try VoiceCompletion.tags(limit: limit, in: connection).map { Candidate(word: oneLine($0)) }
        }
    }

    /// `text` on one line with no control character: a tab would split the
    /// word from its description, a line break start another candidate, an
    /// escape sequence act on the terminal the menu is drawn on. Each becomes
    /// a space (runs of them one), bidirectional overrides too.
    public static func oneLine(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            let isControl: Bool
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: isControl = true
            default: isControl = false
            }
            let isSpace = isControl || scalar == " "
            if isSpace && lastWasSpace { continue }
            out.append(isSpace ? " " : scalar)
            lastWasSpace = isSpace
        }
        return String(out).trimmingSpaces()
    }
}

private extension String {
    func trimmingSpaces() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
