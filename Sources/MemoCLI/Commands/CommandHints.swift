import CommandLineKit
import MemoCore
import MemoKit
import Onboarding
import VoiceMemos

/// The command line's words for the hints the application layer and the
/// feature modules attach to their errors: the command or the flag that gets
/// past the failure, with the punctuation that joins it to the message.
/// The one place where a message learns which flag or command to name.
enum CommandHints {
    static func text(for hint: MemoError.Hint) -> Localized? {
        switch hint {
        case .completeOnboarding:
            return Localized(en: ": run 'memoapp onboard'", ko: ": 'memoapp onboard'를 실행하세요")
        case .examineDataHome:
            return Localized(en: "; run 'memoapp doctor'", ko: ". 'memoapp doctor'를 실행하세요")
        case .force:
            return Localized(en: "; add --force to replace it", ko: ". 바꾸려면 --force를 붙이세요")
        case .chooseFormat:
            return Localized(en: "; name the format with --format", ko: ". --format으로 형식을 지정하세요")
        case .skipOnboarding:
            return Localized(en: ". Use 'memoapp onboard skip' to finish early.",
                             ko: ". 일찍 마치려면 'memoapp onboard skip'을 쓰세요.")
        case .allowDuplicate:
            return Localized(en: " (use --allow-duplicate to store it again)", ko: " (다시 저장하려면 --allow-duplicate)")
        case .nameTheFormat:
            return Localized(en: "; name it with --format wav|flac|ogg|mp3", ko: ". --format wav|flac|ogg|mp3로 지정하세요")
        case .syncNeedsServer:
            return Localized(en: "; name it once: memoapp sync --server URL --token TOKEN",
                             ko: ". 한 번 지정하세요: memoapp sync --server URL --token TOKEN")
        case .confirmMassRemoval:
            return Localized(en: "; run 'memoapp sync --force' if that is what you mean",
                             ko: ". 그렇게 하려는 것이면 'memoapp sync --force'를 실행하세요")
        default:
            return nil
        }
    }
}
