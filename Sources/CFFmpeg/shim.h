#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/avutil.h>
#include <libavutil/dict.h>
#include <libavutil/error.h>

// Function-like macros, which Swift cannot import, as constants. The
// library's major version names the soname memoapp loads: a struct read
// from Swift has the layout of these headers, so only that major will do.
enum {
    cffmpeg_error_eof = AVERROR_EOF,
    cffmpeg_error_again = AVERROR(EAGAIN),
    cffmpeg_libavformat_major = LIBAVFORMAT_VERSION_MAJOR,
};
