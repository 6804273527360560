/* libcurl opened at run time (ps_curl_loader.c): the binary does not link it, so a process
 * that never downloads never loads it, nor the thirty-odd libraries it brings. */
#ifndef PS_CURL_LOADER_H
#define PS_CURL_LOADER_H
#include <curl/curl.h>
#include <stddef.h>

/* The functions of one opened libcurl that a transfer uses. */
typedef struct ps_curl_api {
  __typeof__(&curl_easy_init) easy_init;
  __typeof__(&curl_easy_setopt) easy_setopt;
  __typeof__(&curl_easy_cleanup) easy_cleanup;
  __typeof__(&curl_easy_strerror) easy_strerror;
  __typeof__(&curl_multi_init) multi_init;
  __typeof__(&curl_multi_add_handle) multi_add_handle;
  __typeof__(&curl_multi_remove_handle) multi_remove_handle;
  __typeof__(&curl_multi_perform) multi_perform;
  __typeof__(&curl_multi_poll) multi_poll;
  __typeof__(&curl_multi_wakeup) multi_wakeup;
  __typeof__(&curl_multi_info_read) multi_info_read;
  __typeof__(&curl_multi_strerror) multi_strerror;
  __typeof__(&curl_multi_cleanup) multi_cleanup;
  __typeof__(&curl_slist_append) slist_append;
  __typeof__(&curl_slist_free_all) slist_free_all;
} ps_curl_api;

/* The library `name` (a file name as dlopen takes it, "libcurl.so.4"), opened, its functions
 * resolved and curl_global_init called the first time it is asked for; the same table every
 * time after, from any thread. NULL when it cannot be had, with one line in `error` (at most
 * `size` bytes) saying what is wrong and what to do. A failure is not kept: the next call
 * tries again, so that a library installed meanwhile is found. */
const ps_curl_api *ps_curl_load(const char *name, char *error, size_t size);

#endif
