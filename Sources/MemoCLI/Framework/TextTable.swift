/// A table for a list, printed a row at a time.
///
/// Lists stream (`todo list` prints its first line at once and any number of
/// rows in the memory of one), so no column can be measured by reading every
/// row first. Each column's width comes instead from the values it can hold:
/// an id column from the largest id (one cheap query), a date from the longest
/// text the date formatter makes, a priority from its labels. The last column
/// (the title) takes the room that is left on the terminal, and a title longer
/// than that is shortened with `…` rather than wrapped.
public struct TextTable {
    /// One column.
    public struct Column {
        /// The header, already in the invocation's language.
        public var header: String
        /// Columns the widest value takes (the header may be wider); for the
        /// last column, the least room it is given however narrow the terminal.
        public var width: Int
        public var alignment: TextAlignment
        /// Left out when the terminal is too narrow to show the title in
        /// `minimumTitleWidth` columns beside every column.
        public var isOptional: Bool

        public init(_ header: String, width: Int, alignment: TextAlignment = .left, isOptional: Bool = false) {
            self.header = header
            self.width = width
            self.alignment = alignment
            self.isOptional = isOptional
        }
    }

    /// Between two columns.
    static let gap = "  "
    /// The least a title is given before optional columns make way for it.
    static let minimumTitleWidth = 16

    /// The widths of the columns shown (nil: left out); the last is nil when
    /// the title is as long as it is (no terminal).
    let widths: [Int?]
    let lastWidth: Int?
    private let columns: [Column]
    private let style: TextStyle

    /// A table of `columns`, the last of which is the title, fitted into
    /// `totalWidth` columns (nil: no terminal, nothing shortened).
    public init(_ columns: [Column], totalWidth: Int?, style: TextStyle) {
        precondition(!columns.isEmpty, "a table has at least its title column")
        self.columns = columns
        self.style = style
        // A column with nothing to show (no header, no values: no to-do is
        // pinned) takes no room at all, not even its gap.
        var widths: [Int?] = columns.dropLast().map { column in
            let width = max(column.width, TerminalText.displayWidth(column.header))
            return width > 0 ? width : nil
        }
        let title = columns[columns.count - 1]
        let titleMinimum = max(title.width, TerminalText.displayWidth(title.header))
        func room() -> Int? {
            totalWidth.map { total in total - widths.compactMap { $0 }.reduce(0) { $0 + $1 + TextTable.gap.count } }
        }
        // Optional columns make way, the rightmost first, while the title is cramped.
        for index in columns.indices.dropLast().reversed() where columns[index].isOptional {
            guard let left = room(), left < max(titleMinimum, TextTable.minimumTitleWidth) else { break }
            widths[index] = nil
        }
        self.widths = widths
        self.lastWidth = room().map { max(titleMinimum, $0) }
    }

    /// The header line, bold when colour is on.
    public var header: TerminalText {
        style.bold(line(columns.map { TerminalText($0.header) }))
    }

    /// One row; `cells` holds a cell for every column, in their order.
    public func row(_ cells: [TerminalText]) -> TerminalText {
        line(cells)
    }

    // MARK: - Private

    /// Runs of spaces that pad cells, made once: making one per cell cost
    /// more than the rest of the cell's layout.
    private static let paddings = (0...64).map(blanks)

    private static func spaces(_ count: Int) -> String {
        count < paddings.count ? paddings[count] : blanks(count)
    }

    /// `count` spaces from bytes: `String(repeating: " ", count:)` appends
    /// one string at a time, and making the 65 paddings that way cost 600,000
    /// instructions, 6% of a whole `todo list --limit 50`.
    private static func blanks(_ count: Int) -> String {
        String(decoding: [UInt8](repeating: UInt8(ascii: " "), count: count), as: UTF8.self)
    }

    private func line(_ cells: [TerminalText]) -> TerminalText {
        precondition(cells.count == columns.count, "a row has a cell for each column")
        var out = TerminalText()
        out.reserveCapacity(pieces: cells.count * 4)
        var isFirst = true
        for (index, width) in widths.enumerated() {
            guard let width else { continue }
            if !isFirst { out += TextTable.gap }
            isFirst = false
            // Measured once: a list of half a million rows pays for this per cell.
            var cell = cells[index]
            var cellWidth = cell.displayWidth
            if cellWidth > width {
                cell = cell.truncated(toWidth: width)
                cellWidth = cell.displayWidth
            }
            // Appended in place: `cell + padding` would copy the row's pieces
            // once more for every cell.
            let padding = TextTable.spaces(max(0, width - cellWidth))
            if columns[index].alignment == .left {
                out += cell
                out += padding
            } else {
                out += padding
                out += cell
            }
        }
        let title = lastWidth.map { cells[cells.count - 1].truncated(toWidth: $0) } ?? cells[cells.count - 1]
        if !title.isEmpty {
            if !isFirst { out += TextTable.gap }
            out += title
        }
        return out
    }
}
