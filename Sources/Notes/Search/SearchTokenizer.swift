import CSQLite
#if canImport(Glibc)
import Glibc
#endif

/// memoapp's FTS5 tokenizer: every run of one, two and three neighbouring
/// characters of a field, case folded as `TextMatcher` folds. It is what lets
/// the index answer one- and two-character queries (`회`, `민국`), which
/// SQLite's trigram tokenizer cannot; the three-character runs look longer
/// words up by something rarer than a pair.
///
/// Search looks up single tokens only, one to three characters of each word
/// (see `NoteSearch`), and checks the words themselves on the rows found, so
/// the tables keep no positions (`detail = none`,
/// https://www.sqlite.org/fts5.html#the_detail_option): a doclist is a list
/// of rowids, smaller than the trigram index was and quicker to walk.
///
/// A document's runs that repeat are emitted once (`SearchTokenSet`): with
/// `detail = none` a repeat adds nothing to the index, and sparing FTS5 its
/// lookups makes building an index of many memos markedly cheaper.
///
/// The output is part of the schema: a change to what this emits must come
/// with a new tokenizer name and a migration that rebuilds the indexes, or
/// deletes of rows indexed the old way would corrupt them.
/// (https://www.sqlite.org/fts5.html#custom_tokenizers)
enum SearchTokenizer {
    /// The name tables give in `tokenize = '…'` (the migrations spell it out:
    /// their SQL is frozen).
    static let name = "memoapp_ngram_1"

    /// Registers the tokenizer with the FTS5 module of connection `database`.
    static func register(on database: OpaquePointer) -> Int32 {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(database, "SELECT fts5(?1)", -1, &statement, nil) == SQLITE_OK, let statement
        else { return SQLITE_ERROR }
        defer { sqlite3_finalize(statement) }
        // FTS5 hands out its API through a pointer bound to this query
        // (https://www.sqlite.org/fts5.html#extending_fts5).
        var api: UnsafeMutablePointer<fts5_api>?
        let status = withUnsafeMutablePointer(to: &api) { slot in
            sqlite3_bind_pointer(statement, 1, slot, fts5APIPointerType, nil)
        }
        guard status == SQLITE_OK, sqlite3_step(statement) == SQLITE_ROW,
              let api, api.pointee.iVersion >= 2, let create = api.pointee.xCreateTokenizer
        else { return SQLITE_ERROR }
        var tokenizer = fts5_tokenizer(xCreate: createTokenizer, xDelete: deleteTokenizer, xTokenize: tokenize)
        return create(api, name, nil, &tokenizer, nil)
    }

    // MARK: - Private

    /// The type name FTS5 checks the bound pointer against; SQLite keeps the
    /// pointer, so it must outlive the call (a Swift literal would not).
    private static let fts5APIPointerType: UnsafePointer<CChar> = UnsafePointer(strdup("fts5_api_ptr")!)

    /// Each instance (FTS5 makes one per index and connection, and calls it
    /// from one thread at a time, as the connection is used) keeps the set
    /// of tokens a document's call has emitted, reused from call to call.
    private static let createTokenizer: @convention(c) (
        UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafePointer<CChar>?>?, Int32,
        UnsafeMutablePointer<OpaquePointer?>?
    ) -> Int32 = { _, _, argumentCount, tokenizer in
        guard argumentCount == 0, let tokenizer else { return SQLITE_ERROR }
        tokenizer.pointee = OpaquePointer(Unmanaged.passRetained(SearchTokenSet()).toOpaque())
        return SQLITE_OK
    }

    private static let deleteTokenizer: @convention(c) (OpaquePointer?) -> Void = { instance in
        guard let instance else { return }
        Unmanaged<SearchTokenSet>.fromOpaque(UnsafeRawPointer(instance)).release()
    }

    private typealias TokenCallback = @convention(c) (
        UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, Int32, Int32
    ) -> Int32

    private static let tokenize: @convention(c) (
        OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, Int32, TokenCallback?
    ) -> Int32 = { instance, context, flags, text, byteCount, emit in
        guard let instance, let emit else { return SQLITE_ERROR }
        guard let text, byteCount > 0 else { return SQLITE_OK }
        // C's char and UInt8 may alias (Swift's "related types").
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self),
                                        count: Int(byteCount))
        var writer = TokenWriter(text: text, context: context, emit: emit)
        if flags & FTS5_TOKENIZE_QUERY != 0 { return writer.runQuery(bytes) }
        let emitted = Unmanaged<SearchTokenSet>.fromOpaque(UnsafeRawPointer(instance)).takeUnretainedValue()
        emitted.start(byteCount: bytes.count)
        return writer.runDocument(bytes, emitted: emitted)
    }

    /// One call's worth of tokenizing: reads characters, emits tokens.
    private struct TokenWriter {
        typealias Character = SearchTextReader.Character
        /// The text being read, whose bytes a token of verbatim characters is.
        let text: UnsafePointer<CChar>
        let context: UnsafeMutableRawPointer?
        let emit: TokenCallback
        /// A token: one to three characters in UTF-8.
        var token: (UInt64, UInt32) = (0, 0)

        /// A document: at each character's position, the runs of three, two
        /// and one characters that start there (fewer at the end), each only
        /// the first time the text holds it (`emitted`). The first token
        /// written at a position is not colocated and the others are, so FTS5
        /// counts one token per character, as it would with every repeat
        /// written; a position whose runs all came before still writes its
        /// one character for that count. The index is the same either way:
        /// with `detail = none` a term's doclist holds each row once.
        mutating func runDocument(_ bytes: UnsafeBufferPointer<UInt8>, emitted: SearchTokenSet) -> Int32 {
            var reader = SearchTextReader(bytes)
            // The two characters before the one just read.
            var first: Character?
            var second: Character?
            while let third = reader.nextCharacter() {
                if let first, let second {
                    let status = writePosition(first, second, third, emitted: emitted)
                    guard status == SQLITE_OK else { return status }
                }
                first = second
                second = third
            }
            // The last two positions have no three characters to start.
            if let first, let second {
                let status = writePosition(first, second, nil, emitted: emitted)
                guard status == SQLITE_OK else { return status }
            }
            return second.map { writePosition($0, nil, nil, emitted: emitted) } ?? SQLITE_OK
        }

        /// A query phrase of one or two characters is that token; a longer
        /// one is its run of three-character tokens.
        mutating func runQuery(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
            var reader = SearchTextReader(bytes)
            var first: Character?
            var second: Character?
            var count = 0
            while let third = reader.nextQueryCharacter() {
                count += 1
                if let first, let second {
                    let status = write(first, second, third, flags: 0)
                    guard status == SQLITE_OK else { return status }
                }
                first = second
                second = third
            }
            guard count < 3, let second else { return SQLITE_OK }
            return first.map { write($0, second, flags: 0) } ?? write(second, flags: 0)
        }

        /// The runs starting at `first`: `first` to `third`, `first` and
        /// `second`, `first` alone (those that exist), longest first.
        private mutating func writePosition(_ first: Character, _ second: Character?, _ third: Character?,
                                            emitted: SearchTokenSet) -> Int32 {
            var flags: Int32 = 0
            if let second {
                if let third, emitted.insert(SearchTokenSet.key(first.value, second.value, third.value)) {
                    let status = write(first, second, third, flags: flags)
                    guard status == SQLITE_OK else { return status }
                    flags = FTS5_TOKEN_COLOCATED
                }
                if emitted.insert(SearchTokenSet.key(first.value, second.value, nil)) {
                    let status = write(first, second, flags: flags)
                    guard status == SQLITE_OK else { return status }
                    flags = FTS5_TOKEN_COLOCATED
                }
            }
            // The position's count needs one token even when all came before.
            guard emitted.insert(SearchTokenSet.key(first.value, nil, nil)) || flags == 0 else { return SQLITE_OK }
            return write(first, flags: flags)
        }

        private mutating func write(_ first: Character, _ second: Character? = nil, _ third: Character? = nil,
                                    flags: Int32) -> Int32 {
            let context = context
            let emit = emit
            let end = (third ?? second ?? first).end
            // Neighbouring characters: their bytes follow one another in the text.
            if first.isVerbatim, second?.isVerbatim ?? true, third?.isVerbatim ?? true {
                return emit(context, flags, text + first.start, Int32(end - first.start), Int32(first.start), Int32(end))
            }
            return withUnsafeMutableBytes(of: &token) { buffer in
                var length = SearchTokenizer.encode(first.value, into: buffer, at: 0)
                if let second { length += SearchTokenizer.encode(second.value, into: buffer, at: length) }
                if let third { length += SearchTokenizer.encode(third.value, into: buffer, at: length) }
                return emit(context, flags, buffer.baseAddress!.assumingMemoryBound(to: CChar.self),
                            Int32(length), Int32(first.start), Int32(end))
            }
        }
    }

    /// Writes `value` (a Unicode scalar) as UTF-8 at `offset`; returns its length.
    /// NUL takes the two-byte form `C0 80` instead: FTS5 keeps terms as C
    /// strings in places, and a zero byte in a term corrupts the index. No
    /// other character encodes to those bytes.
    private static func encode(_ value: UInt32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Int {
        switch value {
        case 0:
            buffer[offset] = 0xC0
            buffer[offset + 1] = 0x80
            return 2
        case 1..<0x80:
            buffer[offset] = UInt8(value)
            return 1
        case 0x80..<0x800:
            buffer[offset] = UInt8(0xC0 | value >> 6)
            buffer[offset + 1] = UInt8(0x80 | value & 0x3F)
            return 2
        case 0x800..<0x10000:
            buffer[offset] = UInt8(0xE0 | value >> 12)
            buffer[offset + 1] = UInt8(0x80 | value >> 6 & 0x3F)
            buffer[offset + 2] = UInt8(0x80 | value & 0x3F)
            return 3
        default:
            buffer[offset] = UInt8(0xF0 | value >> 18)
            buffer[offset + 1] = UInt8(0x80 | value >> 12 & 0x3F)
            buffer[offset + 2] = UInt8(0x80 | value >> 6 & 0x3F)
            buffer[offset + 3] = UInt8(0x80 | value & 0x3F)
            return 4
        }
    }
}

extension NotesSchema {
    /// Gives every SQLite connection this process opens from now on the
    /// tokenizer the search indexes are made with, through SQLite's automatic
    /// extensions (https://www.sqlite.org/c3ref/auto_extension.html). Without
    /// it a connection cannot migrate, search, or write a to-do or a memo
    /// ("no such tokenizer"). Call before opening the first connection; calling
    /// again does nothing.
    public static func registerSearchTokenizer() {
        // SQLite calls the entry point with the connection; its declared type
        // is `void (*)(void)`, so the real signature is cast to it.
        _ = sqlite3_auto_extension(unsafeBitCast(registerOnOpen, to: (@convention(c) () -> Void).self))
    }

    private static let registerOnOpen: @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, UnsafeRawPointer?
    ) -> Int32 = { database, _, _ in
        guard let database else { return SQLITE_ERROR }
        return SearchTokenizer.register(on: database)
    }
}
