// The C boundary of Junction's HTTP transport on Linux: libcurl's header plus one `jc_`
// shim for each variadic function Swift cannot call. One line of logic each; the Swift
// side is Sources/JunctionShipping/Updater/CurlTransport.swift.
#ifndef JUNCTION_CCURL_SHIM_H
#define JUNCTION_CCURL_SHIM_H

#include <curl/curl.h>

static inline CURLcode jc_setopt_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}

// The string is copied by libcurl (7.17.0 and later).
static inline CURLcode jc_setopt_string(CURL *curl, CURLoption option, const char *value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode jc_setopt_pointer(CURL *curl, CURLoption option, void *value) {
    return curl_easy_setopt(curl, option, value);
}

// CURLOPT_POSTFIELDSIZE_LARGE and the other options that take a curl_off_t.
static inline CURLcode jc_setopt_off(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}

static inline CURLcode jc_setopt_headers(CURL *curl, struct curl_slist *headers) {
    return curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
}

// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION take callbacks of this one type.
static inline CURLcode jc_setopt_data_function(CURL *curl, CURLoption option, curl_write_callback function) {
    return curl_easy_setopt(curl, option, function);
}

static inline CURLcode jc_setopt_progress_function(CURL *curl, curl_xferinfo_callback function) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, function);
}

static inline CURLcode jc_getinfo_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}

#endif
