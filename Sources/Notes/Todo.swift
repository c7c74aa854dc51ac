import MemoCore

/// How urgent a to-do is. Stored as 1 (low) to 3 (high).
public enum Priority: Int, CaseIterable, Comparable, Sendable {
    case low = 1
    case medium = 2
    case high = 3

    /// `high`, `medium` or `low`: the word commands take and JSON gives.
    public var name: String {
        switch self {
        case .low: return "low"
        case .medium: return "medium"
        case .high: return "high"
        }
    }

    /// The word for people in `language`.
    public var label: Localized {
        switch self {
        case .low: return Localized(en: "low", ko: "낮음")
        case .medium: return Localized(en: "medium", ko: "보통")
        case .high: return Localized(en: "high", ko: "높음")
        }
    }

    /// Reads `high|medium|low` (any case, also `h`, `m`, `l` and the Korean
    /// 높음, 보통, 낮음), or throws a usage error naming them.
    public init(parsing text: String) throws {
        let word = text.lowercased()
        switch Priority.allCases.first(where: { Priority.spellings($0).contains(word) }) {
        case let priority?: self = priority
        case nil:
            throw MemoError(.usage, en: "unknown priority '\(text)'; use high, medium or low",
                            ko: "우선순위 '\(text)'을(를) 알 수 없습니다. high, medium, low(높음, 보통, 낮음) 중 하나를 쓰세요")
        }
    }

    /// Every word `init(parsing:)` takes for `priority` (in lower case), the
    /// canonical name first: help lists them from here.
    public static func spellings(_ priority: Priority) -> [String] {
        switch priority {
        case .high: return ["high", "h", "높음"]
        case .medium: return ["medium", "med", "m", "보통"]
        case .low: return ["low", "l", "낮음"]
        }
    }

    /// Low < medium < high.
    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One to-do as stored.
public struct Todo: Hashable, Sendable {
    /// Never changes and is never given to another to-do.
    public let id: Int64
    /// The to-do's identity in every data home (a UUID, lowercase); kept by
    /// export and import. Empty for a to-do that was never stored.
    public let uid: String
    /// What to do; never blank.
    public var title: String
    /// Free text beside the title; nil when there is none.
    public var note: String?
    /// nil when none was given.
    public var priority: Priority?
    /// In the order they were given, de-duplicated.
    public var tags: [String]
    /// nil when it has no due date.
    public var due: Due?
    /// When it was added.
    public var createdAt: Timestamp
    /// The last change of any field, including done and reopened.
    public var updatedAt: Timestamp
    /// When it was marked done; nil while it is open.
    public var doneAt: Timestamp?
    /// How it comes back once done; nil for a one-off. Only a to-do with a
    /// due date has one.
    public var repeatRule: RepeatRule?
    /// When `memoapp remind` tells about it besides its due time; nil for none.
    public var remindAt: Timestamp?
    /// Its revision in this data home: the number of its latest change,
    /// from one counter of the home, so a higher rev is a later change.
    /// 0 for one never stored. The API's ETag.
    public var rev: Int64 = 0

    /// A to-do as stored; stores make these, tests and front ends may too.
    public init(id: Int64, uid: String = "", title: String, note: String? = nil, priority: Priority? = nil,
                tags: [String] = [], due: Due? = nil, createdAt: Timestamp, updatedAt: Timestamp,
                doneAt: Timestamp? = nil, repeatRule: RepeatRule? = nil, remindAt: Timestamp? = nil) {
        self.id = id
        self.uid = uid
        self.title = title
        self.note = note
        self.priority = priority
        self.tags = tags
        self.due = due
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.doneAt = doneAt
        self.repeatRule = repeatRule
        self.remindAt = remindAt
    }

    /// Whether it has been marked done.
    public var isDone: Bool { doneAt != nil }

    /// Open and past its due moment.
    public func isOverdue(at now: Timestamp) -> Bool {
        !isDone && (due?.isOverdue(at: now) ?? false)
    }

    /// Open and due on the local date of `now`.
    public func isDueToday(at now: Timestamp, in calendar: some LocalCalendar) -> Bool {
        guard !isDone, let due else { return false }
        return due.date(in: calendar) == calendar.date(at: now)
    }
}

/// What `TodoStore.add` needs: everything but the id and the times.
public struct NewTodo: Sendable {
    /// What to do; must not be blank.
    public var title: String
    /// An empty note is no note.
    public var note: String?
    /// Optional urgency.
    public var priority: Priority?
    /// Cleaned by `Tags.normalized`.
    public var tags: [String]
    /// Optional due date (see `DueDateParser`).
    public var due: Due?
    /// Optional repetition; needs a due date. Its month day is taken from
    /// the due date by the store unless it has one (as a next occurrence
    /// keeps the first one's).
    public var repeatRule: RepeatRule?
    /// Optional moment to be reminded at (see `Due.reminderMoment`).
    public var remindAt: Timestamp?

    /// A to-do to add.
    public init(title: String, note: String? = nil, priority: Priority? = nil, tags: [String] = [], due: Due? = nil,
                repeatRule: RepeatRule? = nil, remindAt: Timestamp? = nil) {
        self.title = title
        self.note = note
        self.priority = priority
        self.tags = tags
        self.due = due
        self.repeatRule = repeatRule
        self.remindAt = remindAt
    }
}

/// The changes of `todo edit`; nil or empty members leave a field as it is.
public struct TodoChanges: Sendable {
    /// How to treat an optional field.
    public enum Change<Value: Sendable>: Sendable {
        case keep
        case set(Value)
        case remove
    }

    /// A new title; nil keeps it.
    public var title: String?
    /// Set, keep or remove the note (an empty one counts as removed).
    public var note: Change<String> = .keep
    /// Set, keep or remove the priority.
    public var priority: Change<Priority> = .keep
    /// Set, keep or remove the due date.
    public var due: Change<Due> = .keep
    /// Set, keep or remove the reminder moment.
    public var remind: Change<Timestamp> = .keep
    /// Tags to add after the existing ones.
    public var addedTags: [String] = []
    /// Tags to take away (any case); removing an absent tag is no error.
    public var removedTags: [String] = []
    /// Set, keep or remove the repetition.
    public var repeatRule: Change<RepeatRule> = .keep
    /// Where the rule (new or kept) counts from; nil keeps it.
    public var repeatFrom: RepeatRule.Anchor?

    /// Changes to apply; everything kept by default.
    public init(title: String? = nil, note: Change<String> = .keep, priority: Change<Priority> = .keep,
                due: Change<Due> = .keep, remind: Change<Timestamp> = .keep, addedTags: [String] = [],
                removedTags: [String] = []) {
        self.title = title
        self.note = note
        self.priority = priority
        self.due = due
        self.remind = remind
        self.addedTags = addedTags
        self.removedTags = removedTags
    }

    /// True when applying the changes could not change anything.
    public var isEmpty: Bool {
        guard title == nil, addedTags.isEmpty, removedTags.isEmpty, repeatFrom == nil else { return false }
        if case .keep = note, case .keep = priority, case .keep = due, case .keep = repeatRule, case .keep = remind {
            return true
        }
        return false
    }
}
