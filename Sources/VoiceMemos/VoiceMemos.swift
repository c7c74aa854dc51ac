// The VoiceMemos module; its parts arrive with its issue.
import MemoCore
