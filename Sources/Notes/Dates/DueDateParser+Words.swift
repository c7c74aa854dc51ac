import MemoCore

/// The words of a WHEN as the parser reads them, the phrases that end a
/// week, a month or a year, and what a refusal or a warning says.
extension DueDateParser {
    /// What to caution the user about `due`, parsed now, though it is taken:
    /// more than a day in the past, or more than five years ahead (a year
    /// mistyped, `2062`). Nil for a likely date.
    public func warning(for due: Due) -> Localized? {
        let shown = due.description(in: calendar)
        if due.instant.secondsSince1970 < now.secondsSince1970 - 86_400 {
            return Localized(en: "\(shown) is in the past", ko: "\(shown)은(는) 지난 날짜입니다")
        }
        let fiveYears = calendar.endOfDay(calendar.date(at: now).adding(months: 60))
        if due.instant > fiveYears {
            return Localized(en: "\(shown) is more than 5 years away", ko: "\(shown)은(는) 5년도 더 뒤입니다")
        }
        return nil
    }

    /// `text` as lowercased words, `tonight` as `today night` and `this
    /// evening` as `today evening`.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        for word in text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map({ String($0).lowercased() }) {
            if word == "tonight" {
                words += ["today", "night"]
            } else if let (day, period) = koreanPeriodJoined(word) {
                // 오늘밤, 내일저녁, 저녁7시: written without the space.
                words += [day, period]
            } else {
                words.append(word)
            }
        }
        for index in words.indices.dropLast() where words[index] == "this" && DayPeriod.words[words[index + 1]] != nil {
            words[index] = "today"
        }
        return words
    }

    /// `오늘밤` as `오늘`, `밤`; `금요일저녁` as `금요일`, `저녁`; `저녁7시` as
    /// `저녁`, `7시`. Nil for any other word.
    static func koreanPeriodJoined(_ word: String) -> (String, String)? {
        for period in ["아침", "저녁", "밤", "새벽"] {
            if word.hasSuffix(period) {
                let day = String(word.dropLast(period.count))
                if ["오늘", "내일", "모레", "어제"].contains(day) || (day.hasSuffix("요일") && weekdays[day] != nil) {
                    return (day, period)
                }
            }
            if word.hasPrefix(period), word.count > period.count, word.dropFirst(period.count).first?.isASCIIDigit == true {
                return (period, String(word.dropFirst(period.count)))
            }
        }
        return nil
    }

    /// `end of month`, `이번 달 말` and the like: the last day of this week,
    /// month or year, or of next month.
    func periodEnd(_ words: [String], today: CivilDate) -> CivilDate? {
        let endOfWeek = today.adding(days: (7 - today.weekday) % 7)
        let endOfMonth = CivilDate(year: today.year, month: today.month,
                                   day: CivilDate.daysIn(month: today.month, year: today.year))
        let nextMonth = today.adding(months: 1)
        let endOfNextMonth = CivilDate(year: nextMonth.year, month: nextMonth.month,
                                       day: CivilDate.daysIn(month: nextMonth.month, year: nextMonth.year))
        let endOfYear = CivilDate(year: today.year, month: 12, day: 31)
        switch words.joined(separator: " ") {
        case "end of week", "end of the week": return endOfWeek
        case "end of month", "end of the month": return endOfMonth
        case "end of next month", "end of the next month": return endOfNextMonth
        case "end of year", "end of the year": return endOfYear
        default: break
        }
        // Korean words are spaced as people like: 이번 달 말, 이번달 말, 이번달말.
        switch words.joined() {
        case "월말", "이번달말", "이달말", "말일", "이번달말일": return endOfMonth
        case "다음달말", "다음달말일": return endOfNextMonth
        case "연말", "올해말": return endOfYear
        default: return nil
        }
    }

    // MARK: - Messages

    /// `text` as a message quotes it: control characters as `\u{1B}`, and
    /// at most 40 characters, so that a refusal stays one short line.
    static func quoted(_ text: String) -> String {
        var shown = ""
        for (index, character) in text.enumerated() {
            guard index < 40 else { return shown + "…" }
            if character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control
                || $0.properties.generalCategory == .format || $0.properties.generalCategory == .lineSeparator
                || $0.properties.generalCategory == .paragraphSeparator }) {
                shown += character.unicodeScalars.map { "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined()
            } else {
                shown.append(character)
            }
        }
        return shown
    }
}
