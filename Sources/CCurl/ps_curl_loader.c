/* libcurl opened at run time: see ps_curl_loader.h. */
/* Linux only: elsewhere the network is URLSession, and this file compiles to nothing (an SDK
 * need not have curl's headers). */
#ifdef __linux__
#include "ps_curl_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One library opened for good (it is never closed: curl's global state lives in it). */
typedef struct ps_curl_loaded {
  struct ps_curl_loaded *next;
  char *name;
  ps_curl_api api;
} ps_curl_loaded;

/* The libraries opened so far (one in practice: a test opens a missing one besides), and the
 * lock that makes opening them and curl_global_init, which is not thread-safe in every
 * release, happen once. */
static pthread_mutex_t ps_curl_lock = PTHREAD_MUTEX_INITIALIZER;
static ps_curl_loaded *ps_curl_libraries;

/* Opens `name` and fills `api`; false with the reason in `error`. */
static int ps_curl_open(const char *name, ps_curl_api *api, char *error, size_t size) {
  void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    /* dlerror's "NAME: cannot open shared object file: ...", without the name again */
    const char *why = dlerror();
    size_t length = strlen(name);
    if (!why) why = "no reason given";
    else if (strncmp(why, name, length) == 0 && strncmp(why + length, ": ", 2) == 0) why += length + 2;
    snprintf(error, size, "%s could not be loaded (%s): install libcurl4 (scripts/setup)", name, why);
    return 0;
  }
  const char *missing = NULL;
#define PS_CURL_RESOLVE(field, symbol)                                  \
  if (!missing && !(api->field = (__typeof__(api->field))dlsym(handle, #symbol))) \
    missing = #symbol;
  PS_CURL_RESOLVE(easy_init, curl_easy_init)
  PS_CURL_RESOLVE(easy_setopt, curl_easy_setopt)
  PS_CURL_RESOLVE(easy_cleanup, curl_easy_cleanup)
  PS_CURL_RESOLVE(easy_strerror, curl_easy_strerror)
  PS_CURL_RESOLVE(multi_init, curl_multi_init)
  PS_CURL_RESOLVE(multi_add_handle, curl_multi_add_handle)
  PS_CURL_RESOLVE(multi_remove_handle, curl_multi_remove_handle)
  PS_CURL_RESOLVE(multi_perform, curl_multi_perform)
  PS_CURL_RESOLVE(multi_poll, curl_multi_poll)
  PS_CURL_RESOLVE(multi_wakeup, curl_multi_wakeup)
  PS_CURL_RESOLVE(multi_info_read, curl_multi_info_read)
  PS_CURL_RESOLVE(multi_strerror, curl_multi_strerror)
  PS_CURL_RESOLVE(multi_cleanup, curl_multi_cleanup)
  PS_CURL_RESOLVE(slist_append, curl_slist_append)
  PS_CURL_RESOLVE(slist_free_all, curl_slist_free_all)
#undef PS_CURL_RESOLVE
  __typeof__(&curl_global_init) global_init = NULL;
  if (!missing && !(global_init = (__typeof__(global_init))dlsym(handle, "curl_global_init")))
    missing = "curl_global_init";
  if (missing) {
    snprintf(error, size, "%s has no %s: it is not a libcurl of 7.68 or later; install libcurl4 (scripts/setup)",
             name, missing);
    dlclose(handle);
    return 0;
  }
  CURLcode code = global_init(CURL_GLOBAL_DEFAULT);
  if (code != CURLE_OK) {
    snprintf(error, size, "%s could not be initialized (curl_global_init: %s, curl %d)", name,
             api->easy_strerror(code), (int)code);
    dlclose(handle);
    return 0;
  }
  return 1;
}

const ps_curl_api *ps_curl_load(const char *name, char *error, size_t size) {
  pthread_mutex_lock(&ps_curl_lock);
  const ps_curl_api *found = NULL;
  for (ps_curl_loaded *l = ps_curl_libraries; l && !found; l = l->next) {
    if (strcmp(l->name, name) == 0) found = &l->api;
  }
  if (!found) {
    ps_curl_loaded *l = calloc(1, sizeof *l);
    char *copy = strdup(name);
    if (!l || !copy) {
      snprintf(error, size, "%s could not be loaded (out of memory)", name);
      free(l);
      free(copy);
    } else if (!ps_curl_open(name, &l->api, error, size)) {
      free(l);
      free(copy);
    } else {
      l->name = copy;
      l->next = ps_curl_libraries;
      ps_curl_libraries = l;
      found = &l->api;
    }
  }
  pthread_mutex_unlock(&ps_curl_lock);
  return found;
}

#endif
