import MemoCore
import SQLite

/// Recurring to-dos: the rules stored with a to-do and the occurrence that
/// finishing one adds.
extension TodoStore {
    /// The next occurrence of `todo`, finished at `finishedAt`, or nil for a
    /// one-off: the same title, note, priority, tags, rule and reminder offset, due on the
    /// rule's next date. Counted from the due date, missed dates are skipped
    /// to the first one after today, so a daily to-do finished a week late
    /// comes back once, tomorrow, not seven times overdue. A due with a time
    /// of day keeps that local time.
    func nextOccurrence(of todo: Todo, finishedAt: Timestamp) -> NewTodo? {
        guard let rule = todo.repeatRule, rule.isValid, let due = todo.due else { return nil }
        let today = calendar.date(at: finishedAt)
        var date: CivilDate
        switch rule.from {
        case .done:
            date = rule.nextDate(after: today)
        case .due:
            date = rule.nextDate(after: due.date(in: calendar))
            // Bounded: a daily rule 270 years overdue still stops here.
            var steps = 0
            while date <= today && steps < 100_000 {
                date = rule.nextDate(after: date)
                steps += 1
            }
        }
        let nextDue: Due
        if due.hasTime {
            let time = calendar.civil(at: due.instant)
            nextDue = Due(instant: calendar.instant(of: CivilDateTime(date: date, hour: time.hour, minute: time.minute)),
                          hasTime: true)
        } else {
            nextDue = Due.endOf(date, in: calendar)
        }
        // A reminder keeps its distance from the due time: one the day before
        // stays the day before, rather than staying behind on the done one.
        let shift = nextDue.instant.secondsSince1970 - due.instant.secondsSince1970
        let nextRemindAt = todo.remindAt.map { Timestamp(secondsSince1970: $0.secondsSince1970 + shift) }
        return NewTodo(title: todo.title, note: todo.note, priority: todo.priority, tags: todo.tags, due: nextDue,
                       repeatRule: rule, remindAt: nextRemindAt)
    }

    /// `todo edit`'s repeat changes applied to `todo` after its due date
    /// changed: a rule set or kept is anchored at the (new) due date's day.
    func applyRepeatChanges(_ changes: TodoChanges, to todo: inout Todo) throws {
        switch changes.repeatRule {
        case .keep: break
        case let .set(rule): todo.repeatRule = rule
        case .remove: todo.repeatRule = nil
        }
        if let from = changes.repeatFrom {
            guard todo.repeatRule != nil else {
                throw MemoError(.usage, en: "to-do \(todo.id) does not repeat, so there is nothing to count from",
                                ko: "할 일 \(todo.id)은(는) 반복하지 않으므로 기준을 바꿀 수 없습니다")
            }
            todo.repeatRule?.from = from
        }
        // Anchored again only when the rule or the due date changed: a kept
        // rule on a kept due date keeps its month day (January 31 stays 31
        // while the occurrence sits on February 28).
        var isDueChanged = false
        if case .set = changes.due { isDueChanged = true }
        var isRuleSet = false
        if case .set = changes.repeatRule { isRuleSet = true }
        if isDueChanged || isRuleSet || todo.due == nil {
            todo.repeatRule = try checkedRule(todo.repeatRule, due: todo.due)
        }
    }

    /// `rule` anchored at `due`'s day (unless `isKeepingAnchor` and it has
    /// one), or a usage error when there is a rule but no due date to count from.
    func checkedRule(_ rule: RepeatRule?, due: Due?, isKeepingAnchor: Bool = false) throws -> RepeatRule? {
        guard let rule else { return nil }
        guard rule.isValid else {
            throw MemoError(.usage, en: "a repeat counts 1 to \(RepeatRule.largestEvery) units",
                            ko: "반복 간격은 1에서 \(RepeatRule.largestEvery) 사이여야 합니다")
        }
        guard let due else {
            throw MemoError(.usage, en: "a repeating to-do needs a due date to count from",
                            ko: "반복하는 할 일에는 기준이 될 마감이 필요합니다")
        }
        if isKeepingAnchor && rule.anchorDay != nil { return rule }
        return rule.anchored(at: due.date(in: calendar))
    }

    /// The rule stored in four columns from `firstColumn` (every, unit, from,
    /// day), or nil when there is none or the row holds values no store wrote.
    static func storedRule(_ row: Row, firstColumn: Int) -> RepeatRule? {
        guard let every = row.optionalInt(firstColumn),
              let unit = row.optionalString(firstColumn + 1).flatMap(RepeatRule.Unit.init(rawValue:)),
              let from = row.optionalString(firstColumn + 2).flatMap(RepeatRule.Anchor.init(rawValue:)) else {
            return nil
        }
        let rule = RepeatRule(every: every, unit: unit, from: from, anchorDay: row.optionalInt(firstColumn + 3))
        return rule.isValid ? rule : nil
    }
}
