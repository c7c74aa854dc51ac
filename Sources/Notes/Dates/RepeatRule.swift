import MemoCore

/// How a to-do comes back once it is done: every N days, weeks, months or
/// years, or every weekday, counted from its due date or from the day it was
/// finished.
///
/// Months and years keep the day of the month they started on (`anchorDay`):
/// a to-do due on January 31 repeating monthly is next due February 28 (or
/// 29), then March 31, not March 28, because each occurrence counts from the
/// remembered day rather than from the clamped one before it.
public struct RepeatRule: Hashable, Sendable {
    /// What `every` counts.
    public enum Unit: String, Sendable, CaseIterable {
        case day, week, month, year
        /// Monday to Friday; `every` is always 1.
        case weekday
    }

    /// Where the next occurrence counts from.
    public enum Anchor: String, Sendable, CaseIterable {
        /// The due date of the occurrence just finished (a schedule).
        case due
        /// The local date it was marked done (an interval since last time).
        case done
    }

    /// The largest `every`: a thousand years is further than anyone plans.
    public static let largestEvery = 999

    /// How many units lie between occurrences, 1 to `largestEvery`.
    public var every: Int
    public var unit: Unit
    public var from: Anchor
    /// The day of the month months and years land on (1 to 31), clamped to
    /// the month's length; nil for days, weeks and weekdays, whose dates
    /// never need clamping.
    public var anchorDay: Int?

    /// A rule; `every` must be within 1...`largestEvery` (checked by `isValid`).
    public init(every: Int, unit: Unit, from: Anchor = .due, anchorDay: Int? = nil) {
        self.every = every
        self.unit = unit
        self.from = from
        self.anchorDay = anchorDay
    }

    /// Whether the stored values make a rule a store may keep.
    public var isValid: Bool {
        guard (1...RepeatRule.largestEvery).contains(every), unit != .weekday || every == 1 else { return false }
        return anchorDay.map { (1...31).contains($0) } ?? true
    }

    /// The rule with its month day taken from `date` (months and years only).
    public func anchored(at date: CivilDate) -> RepeatRule {
        var rule = self
        rule.anchorDay = unit == .month || unit == .year ? date.day : nil
        return rule
    }

    /// The date of the occurrence after one on (or finished on) `date`.
    public func nextDate(after date: CivilDate) -> CivilDate {
        switch unit {
        case .day: return date.adding(days: every)
        case .week: return date.adding(days: 7 * every)
        case .weekday:
            var next = date.adding(days: 1)
            while next.weekday == 0 || next.weekday == 6 { next = next.adding(days: 1) }
            return next
        case .month: return date.adding(months: every, keepingDay: anchorDay)
        case .year: return date.adding(months: 12 * every, keepingDay: anchorDay)
        }
    }

    /// `daily`, `weekly`, `every 2 weeks`, `weekdays`: what lists show, and a
    /// text `RepeatRule(parsing:)` reads back.
    public var text: Localized {
        if unit == .weekday { return Localized(en: "weekdays", ko: "평일") }
        let english = ["day": "daily", "week": "weekly", "month": "monthly", "year": "yearly"]
        let korean = ["day": ("매일", "일"), "week": ("매주", "주"), "month": ("매월", "개월"), "year": ("매년", "년")]
        let (koreanEvery, koreanUnit) = korean[unit.rawValue]!
        if every == 1 { return Localized(en: english[unit.rawValue]!, ko: koreanEvery) }
        return Localized(en: "every \(every) \(unit.rawValue)s", ko: "\(every)\(koreanUnit)마다")
    }
}
