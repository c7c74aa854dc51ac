import MemoCore
import Notes

extension WireFormat {
    /// To-dos as JSON, for one moment in one time zone: whether each is
    /// overdue or due today depends on both. Today's bounds are worked out
    /// once and each due formatted once, since a list may hold thousands.
    public final class TodoEncoder {
        public let now: Timestamp
        public let calendar: LocalCalendar
        private let startOfToday: Timestamp
        private let endOfToday: Timestamp
        private var dueTexts: [Due: String] = [:]

        public init(now: Timestamp, calendar: LocalCalendar) {
            self.now = now
            self.calendar = calendar
            let today = calendar.date(at: now)
            startOfToday = calendar.startOfDay(today)
            endOfToday = calendar.endOfDay(today)
        }

        /// One to-do. `due_at` is the moment it becomes overdue (for a
        /// date-only due, the last second of that local day); `due_local` is
        /// what the user gave, in local time, `YYYY-MM-DD` or `YYYY-MM-DD HH:MM`.
        public func json(_ todo: Todo) -> JSON {
            var object = JSONObjectBuilder(capacity: 17)
            describe(todo, to: &object)
            return object.object
        }

        /// One to-do in full (`todo show`, the API's single to-do): `json`
        /// and `time_spent_seconds`, the running time of the timers started
        /// against it (`timer start --todo`). Lists leave it out: it is a read
        /// of the to-do's timers, which a list would pay for on every row.
        public func detail(_ todo: Todo, timeSpent: Double) -> JSON {
            var object = JSONObjectBuilder(capacity: 18)
            describeDetail(todo, timeSpent: timeSpent, to: &object)
            return object.object
        }

        public func json(_ todos: [Todo]) -> JSON {
            .array(todos.map(json))
        }

        /// `json(todos).serializedBytes`, written straight into bytes with no
        /// `JSON` value in between (a server's list answer).
        public func serialized(_ todos: [Todo]) -> [UInt8] {
            JSONByteWriter.collect(capacity: 64 + todos.count * 560) { bytes in
                bytes.append(UInt8(ascii: "["))
                for (index, todo) in todos.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    JSONObjectWriter.write(to: &bytes) { describe(todo, to: &$0) }
                }
                bytes.append(UInt8(ascii: "]"))
            }
        }

        /// `detail(todo, timeSpent:).serializedBytes`, written straight into bytes.
        public func serializedDetail(_ todo: Todo, timeSpent: Double) -> [UInt8] {
            JSONByteWriter.collect(capacity: 640) { bytes in
                JSONObjectWriter.write(to: &bytes) { describeDetail(todo, timeSpent: timeSpent, to: &$0) }
            }
        }

        /// The to-do document's members, in order: the one statement of its
        /// shape, whether it becomes a value or bytes.
        private func describe<Members: JSONMemberSink>(_ todo: Todo, to object: inout Members) {
            object.add("id", int: todo.id)
            object.add("uid", .uid(todo.uid))
            object.add("rev", int: todo.rev)
            object.add("title", string: todo.title)
            object.add("note", string: todo.note)
            object.add("priority", string: todo.priority?.name)
            object.add("tags", strings: todo.tags)
            object.add("due_at", time: todo.due?.instant)
            object.add("due_local", string: todo.due.map(dueText))
            object.add("due_has_time", bool: todo.due?.hasTime ?? false)
            object.add("remind_at", time: todo.remindAt)
            object.add("is_done", bool: todo.isDone)
            object.add("is_overdue", bool: todo.isOverdue(at: now))
            object.add("is_due_today", bool: isDueToday(todo))
            object.add("done_at", time: todo.doneAt)
            object.add("created_at", time: todo.createdAt)
            object.add("updated_at", time: todo.updatedAt)
            object.add("repeat", todo.repeatRule.map(WireFormat.repeatRule) ?? .null)
        }

        private func describeDetail<Members: JSONMemberSink>(_ todo: Todo, timeSpent: Double, to object: inout Members) {
            describe(todo, to: &object)
            object.add("time_spent_seconds", .double(WireFormat.milliseconds(timeSpent)))
        }

        /// Open and due within today's local date (the same rule as
        /// `Todo.isDueToday`, without a time-zone conversion per row).
        public func isDueToday(_ todo: Todo) -> Bool {
            guard !todo.isDone, let due = todo.due else { return false }
            return due.instant >= startOfToday && due.instant <= endOfToday
        }

        /// The due in local time, formatted once per distinct due.
        public func dueText(_ due: Due) -> String {
            if let text = dueTexts[due] { return text }
            let text = due.description(in: calendar)
            dueTexts[due] = text
            return text
        }
    }

    /// How a to-do repeats: `{"every": 2, "unit": "week", "from": "due"}`.
    public static func repeatRule(_ rule: RepeatRule) -> JSON {
        .object([
            ("every", .int(Int64(rule.every))),
            ("unit", .string(rule.unit.rawValue)),
            ("from", .string(rule.from.rawValue)),
        ])
    }

    /// A whole memo, its text exactly as stored.
    public static func memo(_ memo: Memo) -> JSON {
        .object([
            ("id", .int(memo.id)),
            ("uid", .uid(memo.uid)),
            ("rev", .int(memo.rev)),
            ("title", .optional(memo.title)),
            ("text", .string(memo.text)),
            ("tags", .strings(memo.tags)),
            ("is_pinned", .bool(memo.isPinned)),
            ("conflict_of", .optional(memo.conflictOf)),
            ("created_at", .time(memo.createdAt)),
            ("updated_at", .time(memo.updatedAt)),
        ])
    }

    /// A memo in a list: a one-line `preview` instead of the text.
    public static func memo(_ summary: MemoSummary) -> JSON {
        .object([
            ("id", .int(summary.id)),
            ("uid", .uid(summary.uid)),
            ("rev", .int(summary.rev)),
            ("title", .optional(summary.title)),
            ("preview", .string(summary.preview)),
            ("tags", .strings(summary.tags)),
            ("is_pinned", .bool(summary.isPinned)),
            ("conflict_of", .optional(summary.conflictOf)),
            ("created_at", .time(summary.createdAt)),
            ("updated_at", .time(summary.updatedAt)),
        ])
    }

    /// What a removal answers, whatever was removed: the items as they were,
    /// in full, so that a client can show them or put them back.
    public static func removed(_ items: [JSON]) -> JSON {
        .object([("removed", .array(items))])
    }
}
