#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
// For HTTPServer's DepartureWatch, which Swift's Glibc module leaves out.
#include <sys/epoll.h>
#include <sys/eventfd.h>
// For HTTPServer's IdleMemoryTrim and arena limit (malloc_trim, mallopt).
#include <malloc.h>
#include <microhttpd.h>

// libmicrohttpd's variadic functions cannot be called from Swift, and memoapp
// resolves every libmicrohttpd function with dlsym rather than linking it.
// These wrappers take the resolved address and make the variadic call with a
// fixed argument list.

typedef struct MHD_Daemon *(*cmhd_start_daemon_function)(
    unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *,
    MHD_AccessHandlerCallback, void *, ...);
typedef const union MHD_ConnectionInfo *(*cmhd_connection_info_function)(
    struct MHD_Connection *, enum MHD_ConnectionInfoType, ...);

/// MHD_start_daemon with every option in one MHD_OPTION_ARRAY (terminated
/// by MHD_OPTION_END), no accept policy and port 0: the listening socket
/// comes in the array as MHD_OPTION_LISTEN_SOCKET.
static inline struct MHD_Daemon *cmhd_start_daemon(
    void *start_daemon, unsigned int flags, MHD_AccessHandlerCallback handler,
    void *handler_context, struct MHD_OptionItem *options) {
    return ((cmhd_start_daemon_function) start_daemon)(
        flags, 0, NULL, NULL, handler, handler_context,
        MHD_OPTION_ARRAY, options, MHD_OPTION_END);
}

/// MHD_get_connection_info for the information types that take no argument.
static inline const union MHD_ConnectionInfo *cmhd_connection_info(
    void *get_connection_info, struct MHD_Connection *connection,
    enum MHD_ConnectionInfoType type) {
    return ((cmhd_connection_info_function) get_connection_info)(connection, type);
}

/// Where libmicrohttpd's diagnostics go once formatted: a function and its context.
struct cmhd_message_sink {
    void (*deliver)(void *context, const char *message);
    void *context;
};

/// An MHD_LogCallback (printf-style, with a va_list Swift cannot read) that
/// formats the message and hands the text to the cmhd_message_sink in `sink`.
static inline void cmhd_format_message(void *sink, const char *format, va_list arguments) {
    char message[512];
    vsnprintf(message, sizeof message, format, arguments);
    const struct cmhd_message_sink *target = (const struct cmhd_message_sink *) sink;
    target->deliver(target->context, message);
}

/// cmhd_format_message's address, as MHD_OPTION_EXTERNAL_LOGGER takes it in
/// an option array (the first of its two pointers travels as an intptr_t).
static inline intptr_t cmhd_format_message_address(void) {
    return (intptr_t) &cmhd_format_message;
}
