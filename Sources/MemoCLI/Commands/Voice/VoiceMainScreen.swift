import CommandLineKit
import MemoAPI
import MemoCore
import VoiceMemos

/// The main screen's part for voice memos: the newest few.
enum VoiceMainScreen {
    static let latestCount = 3

    static func section(_ context: CommandContext) throws -> MainScreen.Section {
        let store = try VoiceCommand.store(context)
        let (latest, total) = try store.latest(limit: latestCount)
        var text: TerminalText = context.style.bold(context.text(en: "Latest voice memos", ko: "최근 음성 메모")) + "\n"
        if latest.isEmpty {
            text += context.text(en: "  No voice memos yet: memoapp voice import FILE\n",
                                 ko: "  음성 메모가 아직 없습니다: memoapp voice import 파일\n")
        } else {
            text += latest.map { memo in
                let whole = VoiceCommand.line(memo, context)
                return (context.tableWidth.map { whole.truncated(toWidth: $0) } ?? whole) + "\n"
            }.joined()
        }
        if total > latest.count {
            text += context.style.dim(context.text(en: "\(total) voice memos in all: memoapp voice list",
                                                   ko: "음성 메모 모두 \(total)개: memoapp voice list")) + "\n"
        }
        let json = WireFormat.voiceOverview(latest: latest, count: total, in: store)
        return MainScreen.Section(key: "voice", json: json, text: text)
    }
}
