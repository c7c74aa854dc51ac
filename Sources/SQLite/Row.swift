import CSQLite

/// A read-only view of a statement's current row, valid until the statement
/// steps again. Columns are read by index (from 0) or by name; a name is
/// looked up in a table the statement builds once.
public struct Row {
    let statement: Statement
    var handle: OpaquePointer { statement.handle }

    public var columnCount: Int { statement.columnCount }

    /// The name of column `column` (from 0), as the statement gives it.
    public func columnName(_ column: Int) -> String {
        String(cString: sqlite3_column_name(handle, Int32(column)))
    }

    // MARK: By index

    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL
    }

    public func int(_ column: Int) -> Int {
        Int(sqlite3_column_int64(handle, Int32(column)))
    }

    public func int64(_ column: Int) -> Int64 {
        sqlite3_column_int64(handle, Int32(column))
    }

    public func double(_ column: Int) -> Double {
        sqlite3_column_double(handle, Int32(column))
    }

    public func bool(_ column: Int) -> Bool { int64(column) != 0 }

    /// The column as text, decoded as UTF-8 exactly as stored (byte length, so
    /// text holding NUL characters survives).
    public func string(_ column: Int) -> String {
        guard let bytes = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    public func blob(_ column: Int) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        guard count > 0, let bytes = sqlite3_column_blob(handle, Int32(column)) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    public func optionalString(_ column: Int) -> String? { isNull(column) ? nil : string(column) }
    public func optionalDouble(_ column: Int) -> Double? { isNull(column) ? nil : double(column) }
    public func optionalInt(_ column: Int) -> Int? { isNull(column) ? nil : int(column) }

    public func value(_ column: Int) -> SQLiteValue {
        switch sqlite3_column_type(handle, Int32(column)) {
        case SQLITE_INTEGER: return .integer(int64(column))
        case SQLITE_FLOAT: return .real(double(column))
        case SQLITE_TEXT: return .text(string(column))
        case SQLITE_BLOB: return .blob(blob(column))
        default: return .null
        }
    }

    public subscript(_ column: Int) -> SQLiteValue { value(column) }

    // MARK: By name

    /// Whether the row has a column called `name`.
    public func hasColumn(_ name: String) -> Bool { statement.columnIndex(named: name) != nil }

    /// The value of the column called `name`. A name the statement does not
    /// have is a mistake in the calling code (check with `hasColumn` when it
    /// may be absent).
    public subscript(_ name: String) -> SQLiteValue { value(index(of: name)) }

    public func isNull(_ name: String) -> Bool { isNull(index(of: name)) }
    public func int(_ name: String) -> Int { int(index(of: name)) }
    public func int64(_ name: String) -> Int64 { int64(index(of: name)) }
    public func double(_ name: String) -> Double { double(index(of: name)) }
    public func bool(_ name: String) -> Bool { bool(index(of: name)) }
    public func string(_ name: String) -> String { string(index(of: name)) }
    public func blob(_ name: String) -> [UInt8] { blob(index(of: name)) }
    public func optionalString(_ name: String) -> String? { optionalString(index(of: name)) }
    public func optionalDouble(_ name: String) -> Double? { optionalDouble(index(of: name)) }
    public func optionalInt(_ name: String) -> Int? { optionalInt(index(of: name)) }

    // MARK: - Private

    private func index(of name: String) -> Int {
        guard let index = statement.columnIndex(named: name) else {
            preconditionFailure("no column '\(name)' in: \(statement.sql)")
        }
        return index
    }
}
