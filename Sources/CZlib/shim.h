#include <zlib.h>

// deflateInit2 is a macro that passes the header's version and the size of
// z_stream to deflateInit2_; this calls the function pointer memoapp
// resolved from libz.so.1 the same way, so a library built with another
// z_stream layout refuses (Z_VERSION_ERROR) instead of corrupting memory.
typedef int (*memoapp_deflate_init2_function)(z_streamp, int, int, int, int, int, const char *, int);

static inline int memoapp_deflate_init2(void *function, z_streamp stream, int level, int window_bits, int memory_level) {
    return ((memoapp_deflate_init2_function)function)(stream, level, Z_DEFLATED, window_bits, memory_level,
                                                      Z_DEFAULT_STRATEGY, ZLIB_VERSION, (int)sizeof(z_stream));
}
