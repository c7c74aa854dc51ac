#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import; this gives Swift the same value under a plain name.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }

// sqlite3_config is variadic, which Swift cannot call; these are its uses
// in memoapp under plain signatures.
static inline int csqlite_config_memory_statistics(int enabled) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, enabled);
}

// SQLITE_CONFIG_PAGECACHE with no buffer of memoapp's own: each page cache
// then starts with `lines` pages allocated at once (0: none, each page
// allocated when it is first needed).
static inline int csqlite_config_page_cache_first_allocation(int lines) {
    return sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)0, 0, lines);
}
