#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
// call; these fixed-argument helpers call the function pointers memoapp
// resolved from libcurl.so.4 with each kind of argument the options take.
typedef CURLcode (*memoapp_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*memoapp_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode memoapp_curl_setopt_long(void *function, CURL *handle, CURLoption option, long value) {
    return ((memoapp_curl_setopt_function)function)(handle, option, value);
}

static inline CURLcode memoapp_curl_setopt_offset(void *function, CURL *handle, CURLoption option, curl_off_t value) {
    return ((memoapp_curl_setopt_function)function)(handle, option, value);
}

static inline CURLcode memoapp_curl_setopt_pointer(void *function, CURL *handle, CURLoption option, const void *value) {
    return ((memoapp_curl_setopt_function)function)(handle, option, value);
}

static inline CURLcode memoapp_curl_setopt_write_function(void *function, CURL *handle,
                                                          size_t (*callback)(char *, size_t, size_t, void *)) {
    return ((memoapp_curl_setopt_function)function)(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode memoapp_curl_getinfo_long(void *function, CURL *handle, CURLINFO info, long *value) {
    return ((memoapp_curl_getinfo_function)function)(handle, info, value);
}

static inline CURLcode memoapp_curl_getinfo_offset(void *function, CURL *handle, CURLINFO info, curl_off_t *value) {
    return ((memoapp_curl_getinfo_function)function)(handle, info, value);
}

static inline CURLcode memoapp_curl_setopt_read_function(void *function, CURL *handle,
                                                         size_t (*callback)(char *, size_t, size_t, void *)) {
    return ((memoapp_curl_setopt_function)function)(handle, CURLOPT_READFUNCTION, callback);
}
