import MemoCore

/// The one line a progress bar shows, as a pure function of how far the work
/// is, what it is called and how wide the terminal is now:
/// `[=======>          ]  42% label`. Kept apart from `ProgressBar` (which
/// only writes) so every width can be checked without a terminal.
enum ProgressLine {
    /// The widest bar: wider says nothing more and leaves the label less room.
    static let maximumBarWidth = 30
    /// Below this many columns only the percentage fits.
    static let minimumColumnsForBar = 16

    /// The line for `done` of `total` on a terminal `columns` wide. It never
    /// reaches the last column (several terminals wrap on writing there, and a
    /// wrapped line cannot be erased with one carriage return), and the label
    /// is shortened by display width with `…` (Hangul takes two columns).
    static func text(done: Int64, of total: Int64, label: String, columns: Int) -> TerminalText {
        let percent = percentage(done: done, of: total)
        let figure = TerminalText(String(repeating: " ", count: percent < 10 ? 2 : percent < 100 ? 1 : 0) + "\(percent)%")
        let room = columns - 1
        guard room >= minimumColumnsForBar else { return figure }
        // The bar takes half of what the figure leaves, at most `maximumBarWidth`,
        // so a long label still gets some room at 40 columns.
        let barWidth = min(maximumBarWidth, (room - 6) / 2)
        var line = TerminalText(bar(percent: percent, width: barWidth)) + " " + figure
        let labelRoom = room - line.displayWidth - 1
        if !label.isEmpty, labelRoom > 0 {
            line += " " + TerminalText(line: label).truncated(toWidth: labelRoom)
        }
        return line
    }

    /// 0…100, rounded down so 100% means finished; an unknown total is 0%.
    static func percentage(done: Int64, of total: Int64) -> Int {
        guard total > 0 else { return 0 }
        let clamped = min(max(done, 0), total)
        let (product, overflows) = clamped.multipliedReportingOverflow(by: 100)
        if !overflows { return Int(product / total) }
        // Past 92 PB: a Double's rounding could say 100 before the end.
        return clamped == total ? 100 : min(99, Int((Double(clamped) * 100 / Double(total)).rounded(.down)))
    }

    /// `[====>     ]`, `width` columns in all, in ASCII: block characters are
    /// "ambiguous width", two columns on some Korean terminals, and would
    /// push the line past the edge there.
    static func bar(percent: Int, width: Int) -> String {
        let inside = max(0, width - 2)
        let filled = inside * min(max(percent, 0), 100) / 100
        let head = filled < inside && filled > 0 ? ">" : ""
        let body = String(repeating: "=", count: filled - head.count) + head
        return "[" + body + String(repeating: " ", count: inside - body.count) + "]"
    }

    /// How to get back to the start of a line `drawnWidth` columns wide, drawn
    /// with the cursor left after it, on a terminal now `columns` wide, and
    /// erase it with whatever it wrapped into: a terminal made narrower than
    /// the line reflows it over several rows (tmux, VTE, kitty and iTerm2
    /// do), with the cursor on the last of them, so a carriage return alone
    /// would leave the first rows behind.
    static func returnToStart(drawnWidth: Int, columns: Int) -> TerminalText {
        let rowsAbove = columns > 0 && drawnWidth >= columns ? drawnWidth / columns : 0
        let up = rowsAbove > 0 ? TerminalText(.cursorUp(rowsAbove)) : TerminalText()
        return up + TerminalText(.carriageReturn) + TerminalText(.clearToEndOfScreen)
    }
}

/// When a progress bar redraws: not before the work has taken `delay` (quick
/// work shows nothing), at most once per `interval`, and only when the line
/// would change. `update` costs a comparison for most items: the clock is read
/// only when the permille changed, the width only when a frame is due.
struct ProgressSchedule {
    let delay: Double
    let interval: Double
    let start: Double
    private var lastPermille = -1
    private var lastDrawn: Double?
    private var lastLine: TerminalText?

    init(start: Double, delay: Double = 1, interval: Double = 0.1) {
        self.start = start
        self.delay = delay
        self.interval = interval
    }

    /// The frame to draw now, or nil to draw nothing.
    /// - Parameters:
    ///   - now: read only when needed (monotonic seconds).
    ///   - columns: read only when a frame is due (the terminal's width now,
    ///     so a resize is followed at the next frame).
    mutating func frame(done: Int64, of total: Int64, label: String,
                        now: () -> Double, columns: () -> Int) -> TerminalText? {
        guard total > 0 else { return nil }
        let permille = Int((Double(min(max(done, 0), total)) * 1000 / Double(total)).rounded(.down))
        // Marked seen before the clock is asked, so one permille costs one
        // clock read however many items it spans, drawn or not.
        guard permille != lastPermille else { return nil }
        lastPermille = permille
        let time = now()
        guard time - start >= delay else { return nil }
        if let lastDrawn, time - lastDrawn < interval { return nil }
        let line = ProgressLine.text(done: done, of: total, label: label, columns: columns())
        guard line != lastLine else { return nil }
        lastLine = line
        lastDrawn = time
        return line
    }
}
