import CSQLite

/// A prepared statement. Arguments are bound to its placeholders only, their
/// count checked first; the statement is finalized when released.
public final class Statement {
    public let sql: String
    let handle: OpaquePointer
    unowned let connection: Connection

    init(connection: Connection, sql: String) throws {
        var handle: OpaquePointer?
        let status = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
        guard status == SQLITE_OK, let handle else {
            throw connection.error(code: status, sql: sql)
        }
        self.sql = sql
        self.handle = handle
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of placeholders in the statement.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Resets the statement and binds `arguments` to its placeholders in order.
    public func bind(_ arguments: [SQLiteValue]) throws {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        guard arguments.count == parameterCount else {
            throw SQLiteError(code: SQLITE_RANGE,
                              message: "statement takes \(parameterCount) arguments, \(arguments.count) given",
                              sql: sql)
        }
        for (offset, value) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case let .integer(number): status = sqlite3_bind_int64(handle, index, number)
            case let .real(number): status = sqlite3_bind_double(handle, index, number)
            case let .text(text):
                // Bound by byte length, not as a C string, so text holding NUL
                // characters is stored whole.
                var utf8 = text
                status = utf8.withUTF8 { buffer in
                    guard let base = buffer.baseAddress, buffer.count > 0 else {
                        return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                        sqlite3_bind_text64(handle, index, $0, sqlite3_uint64(buffer.count),
                                            csqlite_transient(), UInt8(SQLITE_UTF8))
                    }
                }
            case let .blob(bytes):
                status = bytes.withUnsafeBytes { raw in
                    // A zero-length blob still binds as a blob, not as NULL.
                    sqlite3_bind_blob64(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1),
                                        sqlite3_uint64(raw.count), csqlite_transient())
                }
            case .null: status = sqlite3_bind_null(handle, index)
            }
            guard status == SQLITE_OK else { throw connection.error(code: status, sql: sql) }
        }
    }

    /// Advances one row; false once the statement is done.
    public func step() throws -> Bool {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let failure = connection.error(code: status, sql: sql)
            sqlite3_reset(handle)
            throw failure
        }
    }

    /// The current row; valid until the next `step`.
    public var row: Row { Row(handle: handle) }
}

/// A read-only view of the statement's current row.
public struct Row {
    let handle: OpaquePointer

    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

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
}
