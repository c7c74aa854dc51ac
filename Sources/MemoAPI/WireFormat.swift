import MemoCore

/// The JSON documents memoapp answers with, as pure functions of values: the
/// command line's `--json` output and the server's response bodies are these,
/// produced by the same code. docs/json.md shows every shape with an example.
///
/// Conventions every shape keeps: snake_case keys; ids as integers; times as
/// RFC 3339 UTC with milliseconds (`time`); durations in seconds as numbers;
/// a missing value as null, never an absent key; the same thing under the same
/// key everywhere.
public enum WireFormat {}

extension WireFormat {
    /// `--version`: `{"name": "memoapp", "version": …}`.
    public static func version(_ version: String) -> JSON {
        .object([("name", .string("memoapp")), ("version", .string(version))])
    }
}
