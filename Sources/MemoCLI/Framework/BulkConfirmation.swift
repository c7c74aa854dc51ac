import CommandLineKit
import MemoCore

/// Asking before bulk destruction: a command that removes more than
/// `largestUnasked` items, or a trim that keeps less than half of a memo,
/// asks on a terminal first. `--yes` skips the question; without a terminal
/// (a script, a pipe) nothing is asked, as before.
enum BulkConfirmation {
    /// Removing this many items or fewer is not asked about.
    static let largestUnasked = 3

    static let yes = Flag("yes", help: Localized(en: "do not ask before removing much", ko: "많이 지우기 전에 묻지 않음"))

    /// Goes on when `count` items are few, `--yes` was given, there is no
    /// terminal to ask on, or the user answers yes; else throws, changing
    /// nothing. `what` names the items in the question. `count` is asked for
    /// only when there is someone to ask (counting may read many rows).
    static func removing(_ count: @autoclosure () throws -> Int, _ what: Localized, _ context: CommandContext,
                         _ arguments: ParsedArguments) throws {
        guard mayAsk(context, arguments) else { return }
        let count = try count()
        guard count > largestUnasked else { return }
        try ask(Localized(en: "Remove \(count) \(what.en)?", ko: "\(what.ko) \(count)개를 지울까요?"), context, arguments)
    }

    /// Goes on unless the trim keeps less than half of `duration` and the
    /// user, asked, does not agree.
    static func trimming(keeping kept: Double, of duration: Double, _ context: CommandContext,
                         _ arguments: ParsedArguments) throws {
        guard kept < duration / 2 else { return }
        let percent = Int(((duration - kept) / duration * 100).rounded())
        try ask(Localized(en: "This trim removes \(percent)% of the memo. Go on?",
                          ko: "이렇게 자르면 메모의 \(percent)%가 지워집니다. 계속할까요?"), context, arguments)
    }

    private static func mayAsk(_ context: CommandContext, _ arguments: ParsedArguments) -> Bool {
        !arguments[yes] && context.isInputTerminal && context.isErrorTerminal
    }

    private static func ask(_ question: Localized, _ context: CommandContext, _ arguments: ParsedArguments) throws {
        guard mayAsk(context, arguments) else { return }
        let answer = try context.ask(context.text(question) + context.text(en: " [y/N] ", ko: " [y/N] "))
        let accepted = ["y", "yes", "예", "네", "ㅇ"]
        guard let answer, accepted.contains(answer.lowercased().trimmingWhitespace) else {
            throw MemoError(.invalidState, en: "not confirmed; nothing was changed",
                            ko: "확인하지 않아 아무것도 바꾸지 않았습니다")
        }
    }
}

private extension String {
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
