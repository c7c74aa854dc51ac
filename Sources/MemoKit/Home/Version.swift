/// memoapp's version, shown by `--version` and the splash.
public enum Version {
    public static let current = "0.1.0"
}
