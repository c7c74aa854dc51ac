import MemoCore

/// Reads the JSON array `task export` writes (Taskwarrior 2.5 and later,
/// https://taskwarrior.org/docs/design/task/) into to-dos, all or nothing: a
/// value of the wrong type or form is a bad-input error naming its JSON path.
///
/// - `description` is the title; `uuid` the uid, so a task is never added twice.
/// - `status`: `pending` and `waiting` are open; `completed` is done (at `end`);
///   `deleted` is skipped (the user threw it away).
/// - Recurrence: `recurring` is a template whose `recur` (`weekly`, `2wks`,
///   `quarterly`, `P1M`…, `RepeatRule(taskwarrior:)`) becomes a recurring
///   to-do's rule. Taskwarrior also made open instances of it (tasks with
///   `parent`); memoapp keeps one open occurrence and makes the next when it
///   is done, so the instance due soonest becomes the recurring to-do and the
///   template and its other open instances are skipped. A template without
///   open instances becomes the recurring to-do itself; one whose `recur`
///   memoapp cannot read (or without `due`) is skipped, and its instances
///   stand alone with `recur` in their note. These come after the other tasks.
/// - `entry`, `modified`, `end`, `due` (dates like `20261129T132404Z`): created,
///   updated, done, due. A due at local midnight or 23:59:59 is a date-only due
///   of that day (`due:2026-12-01` as typed); any other a due with a time.
/// - `priority` H, M, L: high, medium, low; any other value goes to the note.
/// - `project` is the tag `project:NAME`, `tags` tags as they are.
/// - `annotations` go to the note, a line each with their local time, after
///   `wait`, `scheduled` and `until` when present, which memoapp has no
///   field for. Other fields are ignored.
public struct TaskwarriorReader: Sendable {
    /// The calendar dates are shown and due dates judged in.
    public let calendar: any LocalCalendar

    /// A reader for `calendar`.
    public init(calendar: any LocalCalendar) {
        self.calendar = calendar
    }

    /// The to-dos to import and how many tasks were skipped as deleted or
    /// recurring templates.
    public struct Result: Equatable, Sendable {
        /// In the file's order.
        public var todos: [ImportedTodo]
        /// Deleted tasks, and recurring templates and instances folded into
        /// one recurring to-do.
        public var skipped: Int

        /// A result from its parts.
        public init(todos: [ImportedTodo], skipped: Int) {
            self.todos = todos
            self.skipped = skipped
        }
    }

    /// The tasks of the export `bytes` from the file `source` (its name for messages).
    public func tasks(in bytes: [UInt8], source: String) throws -> Result {
        var result = Result(todos: [], skipped: 0)
        try forEachTask(in: JSONObjectStream(.bytes(bytes), name: source)) { todo in
            if let todo { result.todos.append(todo) } else { result.skipped += 1 }
        }
        return result
    }

    /// Hands `body` each task of the export in `stream` as it is read (nil for
    /// one skipped): an export of a million tasks is never held whole. Only
    /// recurring templates and their open instances wait for the end, when
    /// each template's are folded into one recurring to-do.
    public func forEachTask(in stream: JSONObjectStream, _ body: (ImportedTodo?) throws -> Void) throws {
        var templates: [(uuid: String, todo: ImportedTodo)] = []
        var openInstances: [String: [ImportedTodo]] = [:]
        try stream.scan(streamedArrays: [""]) { event in
            guard case let .element(_, task) = event else { return }
            guard let todo = try todo(task) else { return try body(nil) }
            if try task.string("status") == "recurring" {
                // A template whose rule memoapp cannot keep stands for nothing
                // the user sees: its instances stand alone.
                guard todo.repeatRule != nil else { return try body(nil) }
                templates.append((todo.uid, todo))
            } else if !todo.isDone, let parent = try task.optionalString("parent") {
                openInstances[parent.lowercased(), default: []].append(todo)
            } else {
                try body(todo)
            }
        }
        for (uuid, template) in templates {
            var instances = openInstances.removeValue(forKey: uuid) ?? []
            instances.sort {
                ($0.due?.instant.secondsSince1970 ?? .infinity) < ($1.due?.instant.secondsSince1970 ?? .infinity)
            }
            guard var first = instances.first else {
                try body(template)
                continue
            }
            first.repeatRule = first.repeatRule ?? template.repeatRule
            try body(first)
            for _ in 0..<instances.count { try body(nil) }
        }
        // Instances whose template the export left out stand alone.
        for parent in openInstances.keys.sorted() {
            for instance in openInstances[parent] ?? [] { try body(instance) }
        }
    }

    // MARK: - Private

    private func todo(_ task: JSONReader) throws -> ImportedTodo? {
        let status = try task.string("status")
        switch status {
        case "pending", "waiting", "completed", "recurring": break
        case "deleted": return nil
        default:
            throw task.failure(
                at: "status", en: "unknown status '\(status)' (pending, waiting, completed, deleted or recurring)",
                ko: "알 수 없는 상태 '\(status)' (pending, waiting, completed, deleted, recurring 중 하나)")
        }
        let description = try task.string("description")
        guard description.contains(where: { !$0.isWhitespace }) else {
            throw task.failure(at: "description", en: "the description is empty", ko: "설명이 비어 있습니다")
        }
        guard !description.hasLineBreak else {
            throw task.failure(at: "description", en: "the description must be one line (it becomes the title)",
                               ko: "설명은 한 줄이어야 합니다 (제목이 됩니다)")
        }
        var todo = ImportedTodo(uid: try uid(task), title: description)
        todo.createdAt = try date(task, "entry")
        todo.updatedAt = try date(task, "modified")
        if status == "completed" {
            todo.isDone = true
            todo.doneAt = try date(task, "end")
        }
        if let due = try date(task, "due") {
            let value = self.due(at: due)
            // A date-only due is the end of its local day, which can fall past
            // the last day memoapp shows.
            guard value.instant.isSupported else { throw try outsideYears(task.nonNull("due")) }
            todo.due = value
        }

        var noteLines: [String] = []
        if let priority = try task.optionalString("priority") {
            switch priority {
            case "H": todo.priority = .high
            case "M": todo.priority = .medium
            case "L": todo.priority = .low
            default: noteLines.append("priority: \(priority)")
            }
        }
        var tags: [String] = []
        if let project = try task.member("project") {
            tags.append(try tag("project:" + project.string(), at: project))
        }
        for item in try task.optionalElements("tags") {
            tags.append(try tag(item.string(), at: item))
        }
        todo.tags = try Tags.normalized(tags)

        for key in ["wait", "scheduled", "until"] {
            if let when = try date(task, key) { noteLines.append("\(key): \(moment(when))") }
        }
        if let recur = try task.optionalString("recur") {
            // Done instances are history: their next occurrence exists already.
            if let rule = RepeatRule(taskwarrior: recur), todo.due != nil, !todo.isDone {
                todo.repeatRule = rule
            } else {
                noteLines.append("recur: \(recur)")
            }
        }
        for annotation in try task.optionalElements("annotations") {
            let text = try annotation.string("description")
            let entry = try date(annotation, "entry")
            noteLines.append(entry.map { calendar.civil(at: $0).minuteDescription + " " + text } ?? text)
        }
        todo.note = noteLines.isEmpty ? nil : noteLines.joined(separator: "\n")
        return todo
    }

    /// The task's uuid, lowercase, which must have the UUID form.
    private func uid(_ task: JSONReader) throws -> String {
        var text = try task.string("uuid").lowercased()
        // Checked in place (a million tasks each have one).
        let isUUID = text.withUTF8 { bytes in
            bytes.count == 36 && bytes.indices.allSatisfy { offset in
                switch offset {
                case 8, 13, 18, 23: bytes[offset] == UInt8(ascii: "-")
                default: (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset])
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(bytes[offset])
                }
            }
        }
        guard isUUID else {
            throw task.failure(at: "uuid", en: "'\(text)' is not a UUID", ko: "'\(text)'은(는) UUID가 아닙니다")
        }
        return text
    }

    /// The member `key` as a Taskwarrior date, `YYYYMMDDTHHMMSSZ` in UTC; nil when absent.
    private func date(_ object: JSONReader, _ key: String) throws -> Timestamp? {
        guard let member = try object.member(key) else { return nil }
        var text = try member.string()
        // Read in place: every task has two to four dates, and copying each
        // into arrays was a share of reading a million tasks.
        let fields: (day: CivilDate, hour: Int, minute: Int, second: Int)? = text.withUTF8 { bytes in
            guard bytes.count == 16, bytes[8] == UInt8(ascii: "T"), bytes[15] == UInt8(ascii: "Z"),
                  bytes.indices.allSatisfy({ $0 == 8 || $0 == 15 || (48...57).contains(bytes[$0]) }) else { return nil }
            let number = { (range: Range<Int>) in bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
            return (CivilDate(year: number(0..<4), month: number(4..<6), day: number(6..<8)),
                    number(9..<11), number(11..<13), number(13..<15))
        }
        guard let (day, hour, minute, second) = fields else {
            throw member.failure(en: "'\(text)' is not a Taskwarrior date (like 20261129T132404Z)",
                                 ko: "'\(text)'은(는) Taskwarrior 날짜(예: 20261129T132404Z)가 아닙니다")
        }
        guard day.isValid, hour < 24, minute < 60, second < 60 else {
            throw member.failure(en: "'\(text)' is not a real date and time", ko: "'\(text)'은(는) 없는 날짜나 시각입니다")
        }
        let instant = TaskwarriorReader.utc.instant(of: CivilDateTime(date: day, hour: hour, minute: minute, second: second))
        // Year 0 reads as a date, but is none memoapp can show or export.
        guard instant.isSupported else { throw outsideYears(member) }
        return instant
    }

    private func outsideYears(_ member: JSONReader) -> MemoError {
        member.failure(en: "the date is outside the years 1 to 9999 memoapp shows",
                       ko: "날짜가 memoapp이 보여 주는 1년에서 9999년 범위를 벗어납니다")
    }

    private static let utc = FixedOffsetCalendar(offsetSeconds: 0)

    /// Taskwarrior keeps a typed date as that day's local midnight (and `eod`
    /// as 23:59:59): both read as the date-only due the user meant.
    private func due(at instant: Timestamp) -> Due {
        let local = calendar.civil(at: instant)
        let isMidnight = local.hour == 0 && local.minute == 0 && local.second == 0
        let isEndOfDay = local.hour == 23 && local.minute == 59 && local.second == 59
        return isMidnight || isEndOfDay ? Due.endOf(local.date, in: calendar) : Due(instant: instant, hasTime: true)
    }

    /// `2027-01-01` at local midnight, else `2027-01-01 09:30`.
    private func moment(_ instant: Timestamp) -> String {
        let local = calendar.civil(at: instant)
        return local.hour == 0 && local.minute == 0 && local.second == 0 ? local.date.description : local.minuteDescription
    }

    /// A project or tag as a memoapp tag; one that cannot be (a space or comma
    /// inside) is an error at its path rather than a silently changed name.
    private func tag(_ text: String, at item: JSONReader) throws -> String {
        do {
            return try Tags.normalized(text)
        } catch let error as MemoError {
            throw item.failure(en: error.message.en, ko: error.message.ko)
        }
    }
}
