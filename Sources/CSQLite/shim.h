#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import; this gives Swift the same value under a plain name.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call; this is its one use
// in memoapp under a plain signature (SQLITE_CONFIG_MEMSTATUS takes an int).
static inline int csqlite_config_memory_statistics(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}
