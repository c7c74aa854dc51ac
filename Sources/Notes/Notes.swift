// The Notes module; its parts arrive with its issue.
import MemoCore
