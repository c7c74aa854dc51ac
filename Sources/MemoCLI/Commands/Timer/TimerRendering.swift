import CommandLineKit
import MemoCore
import Timers
#if canImport(Glibc)
import Glibc
#endif

/// How timers look in text (their JSON is the wire format's `timer`).
enum TimerRendering {
    // MARK: Text

    /// `12:34`, `1:02:03`; with `tenths`, `12:34.5`. Countdowns round up, so
    /// that `0:00` appears only at the very end, as on a kitchen timer.
    ///
    /// Any number is shown, never trapped on: a figure from a damaged row
    /// (infinite, or beyond what an integer holds) is capped at
    /// `longestShown`, and one that is not a number at all shows as zero.
    static func clock(_ seconds: Double, roundingUp: Bool = false, tenths: Bool = false) -> String {
        let value = seconds.isNaN ? 0 : min(longestShown, max(0, seconds))
        let units = tenths ? (value * 10).rounded(roundingUp ? .up : .down) : value.rounded(roundingUp ? .up : .down)
        let whole = Int(tenths ? units / 10 : units)
        let hours = whole / 3600, minutes = whole / 60 % 60, secs = whole % 60
        var text = hours > 0 ? "\(hours):\(pad(minutes, 2)):\(pad(secs, 2))" : "\(minutes):\(pad(secs, 2))"
        if tenths { text += ".\(Int(units) % 10)" }
        return text
    }

    /// The figure a list shows: time left for a countdown, elapsed for a stopwatch.
    /// An ended countdown shows its length, or for a cancelled one how far it got.
    /// A leading `~` marks an estimated figure.
    static func mainFigure(_ snapshot: TimerSnapshot, _ context: CommandContext) -> String {
        let mark = snapshot.isEstimated ? "~" : ""
        guard let remaining = snapshot.remaining, let duration = snapshot.timer.duration else {
            return mark + clock(snapshot.elapsed.seconds, tenths: true)
        }
        switch snapshot.timer.state {
        case .running, .paused:
            return mark + clock(remaining.seconds, roundingUp: true) + context.text(en: " left", ko: " 남음")
        case .finished:
            return mark + clock(duration, roundingUp: true)
        case .cancelled, .stopped:
            return mark + clock(snapshot.elapsed.seconds) + " / " + clock(duration, roundingUp: true)
        }
    }

    /// The longest span `clock` shows: the years 1 to 9999, the longest
    /// span two times memoapp can store lie apart. Far below what an `Int` holds.
    static let longestShown = 315_537_897_600.0

    /// `3 (tea)` or `3`.
    static func name(_ timer: TimerRecord) -> TerminalText {
        timer.label.map { "\(timer.id) (\(line: $0))" } ?? "\(timer.id)"
    }

    /// Local time of day, with the date when it is not today.
    static func localTime(_ timestamp: Timestamp, now: Timestamp) -> String {
        let (day, time) = localParts(timestamp)
        return day == localParts(now).day ? time : "\(day) \(time)"
    }

    /// The table of `timer list` and the main screen.
    static func table(_ snapshots: [TimerSnapshot], _ context: CommandContext) -> TerminalText {
        let header = [context.text(en: "ID", ko: "ID"), context.text(en: "KIND", ko: "종류"),
                      context.text(en: "STATE", ko: "상태"), context.text(en: "TIME", ko: "시간"),
                      context.text(en: "LABEL", ko: "이름")].map { TerminalText($0) }
        let rows = snapshots.map { snapshot -> [TerminalText] in
            [TerminalText(String(snapshot.timer.id)), TerminalText(context.text(snapshot.timer.kind.name)),
             TerminalText(context.text(snapshot.timer.state.name)), TerminalText(mainFigure(snapshot, context)),
             TerminalText(line: snapshot.timer.label ?? "")]
        }
        // Widths of the cells as shown: a control character in a label takes
        // the room of its visible form.
        let widths = (0..<header.count).map { column in
            ([header] + rows).map { $0[column].displayWidth }.max() ?? 0
        }
        return ([header] + rows).enumerated().map { index, row -> TerminalText in
            // Nothing trails the last cell that has text: no padding, no blanks.
            let last = row.lastIndex { !$0.isEmpty } ?? 0
            var line = TerminalText()
            for (column, cell) in row.enumerated() where column <= last {
                if column > 0 { line += "  " }
                line += cell
                if column < last { line += String(repeating: " ", count: widths[column] - cell.displayWidth) }
            }
            // Cut to the terminal as a list's rows are: the label, last, takes the ….
            let fitted = context.tableWidth.map { line.truncated(toWidth: $0) } ?? line
            return index == 0 ? context.style.dim(fitted) : fitted
        }.joined(separator: "\n")
    }

    // MARK: - Private


    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func localParts(_ timestamp: Timestamp) -> (day: String, time: String) {
        var seconds = timestamp.clampedSeconds
        var parts = tm()
        localtime_r(&seconds, &parts)
        let day = "\(parts.tm_year + 1900)-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
        let time = "\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
        return (day, time)
    }
}
