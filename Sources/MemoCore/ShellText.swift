/// Text meant to be pasted into a shell: a fix the doctor proposes, the
/// command that checks a backup.
public enum ShellText {
    /// `path` as the shell needs it: as it is when it holds only letters,
    /// digits and `/._-+,:@%`, else in single quotes.
    public static func quoted(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || scalar.properties.numericType != nil || "/._-+,:@%".unicodeScalars.contains(scalar)
        }
        return plain ? path : "'" + path.replacingAll("'", with: "'\\''") + "'"
    }
}

extension String {
    /// Every `target` replaced (no Foundation in Sources/).
    public func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
