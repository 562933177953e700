// The variadic libcurl calls KotenOCRIIIF needs (Swift cannot call C variadics), one typed function each.
#ifndef KOTEN_CURL_SHIM_H
#define KOTEN_CURL_SHIM_H
#include <curl/curl.h>

/// curl_easy_setopt with a long (numbers and switches).
CURLcode koten_curl_set_long(CURL *handle, CURLoption option, long value);
/// curl_easy_setopt with a curl_off_t (CURLOPT_MAXFILESIZE_LARGE).
CURLcode koten_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value);
/// curl_easy_setopt with a C string (libcurl copies it).
CURLcode koten_curl_set_string(CURL *handle, CURLoption option, const char *value);
/// curl_easy_setopt with a pointer (callback data).
CURLcode koten_curl_set_pointer(CURL *handle, CURLoption option, void *value);
/// curl_easy_setopt with a write or header callback (CURLOPT_WRITEFUNCTION, CURLOPT_HEADERFUNCTION).
CURLcode koten_curl_set_write_callback(CURL *handle, CURLoption option,
                                       size_t (*callback)(char *data, size_t size, size_t count, void *context));
/// curl_easy_getinfo of a long (CURLINFO_RESPONSE_CODE).
CURLcode koten_curl_get_long(CURL *handle, CURLINFO info, long *value);
/// curl_easy_getinfo of a string (CURLINFO_CONTENT_TYPE, CURLINFO_EFFECTIVE_URL); owned by the handle.
CURLcode koten_curl_get_string(CURL *handle, CURLINFO info, const char **value);
/// curl_easy_getinfo of a curl_off_t (CURLINFO_RETRY_AFTER: seconds the server asked to wait, 0 if none).
CURLcode koten_curl_get_offset(CURL *handle, CURLINFO info, curl_off_t *value);

#endif
