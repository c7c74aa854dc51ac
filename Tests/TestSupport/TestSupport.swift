import MemoCore
