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
    func line(_ summary: MemoSummary, idWidth: Int) -> String {
        let style = context.style
        var text = NotesText.paddedID(summary.id, width: idWidth) + (summary.isPinned ? " * " : "   ")
        if let title = summary.title {
            text += style.bold(MemoSummary.preview(of: title))
            if !summary.preview.isEmpty { text += " — " + summary.preview }
        } else {
            text += summary.preview
        }
        text += "  " + style.dim(summary.createdAt.localMinute)
        if !summary.tags.isEmpty { text += " · " + style.cyan(NotesText.tags(summary.tags)) }
        return text
    }

    func lines(_ summaries: [MemoSummary], empty: String) -> String {
        guard !summaries.isEmpty else { return empty }
        let width = String(summaries.map(\.id).max() ?? 0).count
        var out = ""
        for summary in summaries {
            out += line(summary, idWidth: width)
            out += "\n"
        }
        return out
    }

    /// The memo's header, a blank line, and its text as stored.
    func details(_ memo: Memo) -> String {
        var header = "#\(memo.id)"
        if let title = memo.title { header += " " + title }
        var meta = [memo.createdAt.localMinute]
        if memo.updatedAt != memo.createdAt {
            meta.append(context.text(en: "edited ", ko: "고침 ") + memo.updatedAt.localMinute)
        }
        if memo.isPinned { meta.append(context.text(en: "pinned", ko: "고정됨")) }
        if !memo.tags.isEmpty { meta.append(NotesText.tags(memo.tags)) }
        return context.style.bold(header) + "\n" + context.style.dim(meta.joined(separator: " · ")) + "\n\n" + memo.text
    }

    func summary(of memo: Memo) -> MemoSummary { MemoSummary(memo) }
}
