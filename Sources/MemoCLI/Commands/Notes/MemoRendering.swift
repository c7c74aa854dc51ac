import CommandLineKit
import MemoAPI
import MemoCore
import Notes

/// How memos look: lines of text, and the wire format's JSON.
struct MemoRenderer {
    let context: CommandContext

    func json(_ memo: Memo) -> JSON { WireFormat.memo(memo) }

    func json(_ summary: MemoSummary) -> JSON { WireFormat.memo(summary) }

    /// `  5 * 제목 — preview  2026-11-29 22:00 · #tag` (`*` for pinned).
    func line(_ summary: MemoSummary, idWidth: Int) -> TerminalText {
        let style = context.style
        var text = TerminalText(NotesText.paddedID(summary.id, width: idWidth) + (summary.isPinned ? " * " : "   "))
        if let title = summary.title {
            text += style.bold(TerminalText(line: MemoSummary.preview(of: title)))
            if !summary.preview.isEmpty { text += " — " + TerminalText(line: summary.preview) }
        } else {
            text += TerminalText(line: summary.preview)
        }
        text += "  " + style.dim(summary.createdAt.localMinute)
        if !summary.tags.isEmpty { text += " · " + style.cyan(TerminalText(line: NotesText.tags(summary.tags))) }
        return text
    }

    /// The table of `memo list`, sized before any row is read (ids up to
    /// `largestID`, the longest relative date).
    func table(largestID: Int64) -> TextTable {
        TextTable([
            .init("ID", width: String(largestID).count, alignment: .right),
            // * pinned
            .init("", width: 1),
            .init(context.text(en: "WRITTEN", ko: "작성"), width: RelativeDate.maximumWidth(in: context.language),
                  isOptional: true),
            .init(context.text(en: "TITLE", ko: "제목"), width: 8),
        ], totalWidth: context.tableWidth, style: context.style)
    }

    /// One memo as a row of `table`: its title in bold, the start of its
    /// text after it, then its tags.
    func row(_ summary: MemoSummary, in table: TextTable, dates: RelativeDate) -> TerminalText {
        let style = context.style
        var title = TerminalText()
        if let heading = summary.title {
            title += style.bold(TerminalText(line: MemoSummary.preview(of: heading)))
            if !summary.preview.isEmpty { title += " — " + TerminalText(line: summary.preview) }
        } else {
            title += TerminalText(line: summary.preview)
        }
        if !summary.tags.isEmpty { title += "  " + style.cyan(TerminalText(line: NotesText.tags(summary.tags))) }
        return table.row([TerminalText(String(summary.id)), summary.isPinned ? style.yellow("*") : "",
                          style.dim(dates.past(summary.createdAt)), title])
    }

    /// Lines for a list, each cut with … to `columns` when given (the
    /// terminal's width); `empty` when there is nothing.
    func lines(_ summaries: [MemoSummary], empty: String, columns: Int?) -> TerminalText {
        guard !summaries.isEmpty else { return TerminalText(empty) }
        let width = String(summaries.map(\.id).max() ?? 0).count
        var out = TerminalText()
        for summary in summaries {
            let whole = line(summary, idWidth: width)
            out += columns.map { whole.truncated(toWidth: $0) } ?? whole
            out += "\n"
        }
        return out
    }

    /// The memo's header, a blank line, and its text as stored.
    func details(_ memo: Memo) -> TerminalText {
        var header = TerminalText("#\(memo.id)")
        if let title = memo.title { header += " " + TerminalText(line: title) }
        var meta = [memo.createdAt.localMinute]
        if memo.updatedAt != memo.createdAt {
            meta.append(context.text(en: "edited ", ko: "고침 ") + memo.updatedAt.localMinute)
        }
        if memo.isPinned { meta.append(context.text(en: "pinned", ko: "고정됨")) }
        if !memo.tags.isEmpty { meta.append(NotesText.tags(memo.tags)) }
        return context.style.bold(header) + "\n" + context.style.dim(TerminalText(line: meta.joined(separator: " · ")))
            + "\n\n" + TerminalText(memo.text)
    }

    func summary(of memo: Memo) -> MemoSummary { MemoSummary(memo) }
}
