import CSQLite

/// A prepared statement. Arguments are bound to its placeholders only, their
/// count checked first; the statement is finalized when released.
///
/// Run one by hand with `bind`, then `step` until it returns false, reading
/// `row` after each true; `reset` when done early. `Connection.query` does
/// all of this.
public final class Statement {
    public let sql: String
    let handle: OpaquePointer
    unowned let connection: Connection
    /// Column names to indexes, made on the first lookup by name and kept for
    /// the statement's life (a prepared statement's columns never change).
    private var columnIndexes: [String: Int]?

    /// `isPersistent` tells SQLite the statement will be kept and reused
    /// (https://www.sqlite.org/c3ref/c_prepare_normalize.html).
    init(connection: Connection, sql: String, isPersistent: Bool) throws {
        var handle: OpaquePointer?
        let flags = UInt32(isPersistent ? SQLITE_PREPARE_PERSISTENT : 0)
        let status = sqlite3_prepare_v3(connection.handle, sql, -1, flags, &handle, nil)
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

    /// Puts the statement back at its start (bindings stay). `bind` does it too.
    public func reset() {
        sqlite3_reset(handle)
    }

    /// Whether the statement has given a row and has been neither run to its
    /// end nor reset: someone is in the middle of reading its rows
    /// (https://www.sqlite.org/c3ref/stmt_busy.html).
    public var isRunning: Bool { sqlite3_stmt_busy(handle) != 0 }

    /// The current row; valid until the next `step`.
    public var row: Row { Row(statement: self) }

    /// The number of columns in each row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    /// The columns' names, in order, as SQLite reports them (the `AS` name
    /// when there is one).
    public var columnNames: [String] {
        (0..<Int32(columnCount)).map { String(cString: sqlite3_column_name(handle, $0)) }
    }

    /// The index of the column called `name`, or nil. An exact match first,
    /// then one that differs in ASCII case only (SQLite's names are
    /// case-insensitive); the leftmost wins when names repeat.
    public func columnIndex(named name: String) -> Int? {
        let indexes = columnIndexes ?? makeColumnIndexes()
        if let index = indexes[name] { return index }
        let lowered = name.lowercased()
        return columnNames.firstIndex { $0.lowercased() == lowered }
    }

    // MARK: - Private

    private func makeColumnIndexes() -> [String: Int] {
        var indexes: [String: Int] = [:]
        for (index, name) in columnNames.enumerated() where indexes[name] == nil {
            indexes[name] = index
        }
        columnIndexes = indexes
        return indexes
    }
}
