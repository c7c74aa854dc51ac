/// The name of the file a memo is edited in, inside the data home:
/// `.memo-edit-<pid>-XXXXXX.txt`. The process id lets the doctor tell a file
/// whose memoapp was killed from one still being edited.
public enum EditorFileName {
    public static let prefix = ".memo-edit-"
    public static let suffix = ".txt"

    /// Whether a name in the data home is a memo editor's file.
    public static func matches(_ name: String) -> Bool {
        name.hasPrefix(prefix) && name.hasSuffix(suffix)
    }

    /// The id of the memoapp process that made an editor file, when its name has one.
    public static func processID(in name: String) -> Int32? {
        Int32(name.dropFirst(prefix.count).prefix { $0 != "-" })
    }
}
