/// A stored row holding a value memoapp would not have stored: one from an
/// older memoapp or written by hand with the sqlite3 shell. Commands still
/// read and show such a row without trapping; the doctor reports it, so that
/// nobody is told all is well while it is there.
public struct StoredValueProblem: Sendable, Equatable {
    /// The table, e.g. `todos`.
    public let table: String
    /// The row's id.
    public let id: Int64
    /// What is wrong, in English (field names as the table names them).
    public let problems: [String]

    public init(table: String, id: Int64, problems: [String]) {
        self.table = table
        self.id = id
        self.problems = problems
    }
}
