import CJansson

/// Jansson's functions, resolved from `libjansson.so.4` the first time a
/// command reads JSON (imports and restores) instead of being linked, so
/// that the commands that never parse JSON do not load it at start (see
/// `SharedLibrary`). The declarations come from Jansson's header through the
/// CJansson module. Each property is the Jansson function of the same name
/// (https://jansson.readthedocs.io/en/2.14/apiref.html), e.g. `loadb` is
/// `json_loadb`.
struct LibJansson: Sendable {
    static let soname = "libjansson.so.4"
    static let debianPackage = "libjansson4"

    /// Loaded once, on first use; Swift runs a static initialiser once even
    /// when threads race for it.
    private static let shared = load(soname)

    /// Jansson, or an `internalFailure` naming the library and its package.
    static func loaded() throws(MemoError) -> LibJansson {
        try shared.get()
    }

    let loadb: @convention(c) (UnsafePointer<CChar>?, Int, Int, UnsafeMutablePointer<json_error_t>?)
        -> UnsafeMutablePointer<json_t>?
    /// Frees a whole tree; memoapp owns only roots it parsed, whose reference
    /// count is 1, so this is what `json_decref` would do for them.
    let delete: @convention(c) (UnsafeMutablePointer<json_t>?) -> Void
    let objectSize: @convention(c) (UnsafePointer<json_t>?) -> Int
    let objectIterator: @convention(c) (UnsafeMutablePointer<json_t>?) -> UnsafeMutableRawPointer?
    let objectIteratorKey: @convention(c) (UnsafeMutableRawPointer?) -> UnsafePointer<CChar>?
    let objectIteratorKeyLength: @convention(c) (UnsafeMutableRawPointer?) -> Int
    let objectIteratorValue: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutablePointer<json_t>?
    let objectIteratorNext: @convention(c) (UnsafeMutablePointer<json_t>?, UnsafeMutableRawPointer?)
        -> UnsafeMutableRawPointer?
    let arraySize: @convention(c) (UnsafePointer<json_t>?) -> Int
    let arrayGet: @convention(c) (UnsafePointer<json_t>?, Int) -> UnsafeMutablePointer<json_t>?
    let stringValue: @convention(c) (UnsafePointer<json_t>?) -> UnsafePointer<CChar>?
    let stringLength: @convention(c) (UnsafePointer<json_t>?) -> Int
    let integerValue: @convention(c) (UnsafePointer<json_t>?) -> json_int_t
    let realValue: @convention(c) (UnsafePointer<json_t>?) -> Double

    static func load(_ library: String) -> Result<LibJansson, MemoError> {
        SharedLibrary.load(library, debianPackage: debianPackage,
                           purpose: Localized(en: "reading JSON (Jansson)", ko: "JSON 읽기(Jansson)"),
                           resolving: LibJansson.init(resolvingFrom:))
    }

    private init(resolvingFrom symbols: SharedLibrary) throws(MemoError) {
        loadb = try symbols.function("json_loadb")
        delete = try symbols.function("json_delete")
        objectSize = try symbols.function("json_object_size")
        objectIterator = try symbols.function("json_object_iter")
        objectIteratorKey = try symbols.function("json_object_iter_key")
        objectIteratorKeyLength = try symbols.function("json_object_iter_key_len")
        objectIteratorValue = try symbols.function("json_object_iter_value")
        objectIteratorNext = try symbols.function("json_object_iter_next")
        arraySize = try symbols.function("json_array_size")
        arrayGet = try symbols.function("json_array_get")
        stringValue = try symbols.function("json_string_value")
        stringLength = try symbols.function("json_string_length")
        integerValue = try symbols.function("json_integer_value")
        realValue = try symbols.function("json_real_value")
    }
}
