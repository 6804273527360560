/* One HTTP transfer over libcurl: see ps_curl_transfer.h. */
/* Linux only: elsewhere the network is URLSession, and this file compiles to nothing (an SDK
 * need not have curl's headers). */
#ifdef __linux__
/* CURLOPT_PROTOCOLS, deprecated in 7.85, is the fallback for the releases before it. */
#define CURL_DISABLE_DEPRECATION
#include "ps_curl_transfer.h"
#include "ps_curl_loader.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most bytes of header lines a response may have (curl's own limit for one header is
 * 100 KB). */
#define PS_CURL_HEAD_MAX (256 * 1024)

/* The most milliseconds one wait for the network lasts; a thrown stop switch ends it sooner. */
#define PS_CURL_POLL_MS 1000

struct ps_curl_stop {
  atomic_bool thrown;
  /* Guards `api` and `multi`, which are set while a transfer runs. */
  pthread_mutex_t lock;
  const ps_curl_api *api;
  CURLM *multi;
};

ps_curl_stop *ps_curl_stop_new(void) {
  ps_curl_stop *stop = calloc(1, sizeof *stop);
  if (!stop) return NULL;
  atomic_init(&stop->thrown, false);
  pthread_mutex_init(&stop->lock, NULL);
  return stop;
}

void ps_curl_stop_throw(ps_curl_stop *stop) {
  atomic_store(&stop->thrown, true);
  pthread_mutex_lock(&stop->lock);
  if (stop->multi) stop->api->multi_wakeup(stop->multi);
  pthread_mutex_unlock(&stop->lock);
}

bool ps_curl_stop_thrown(ps_curl_stop *stop) { return atomic_load(&stop->thrown); }

void ps_curl_stop_free(ps_curl_stop *stop) {
  if (!stop) return;
  pthread_mutex_destroy(&stop->lock);
  free(stop);
}

/* Makes `multi` the handle that throwing `stop` wakes (NULL: none). */
static void ps_curl_stop_attach(ps_curl_stop *stop, const ps_curl_api *api, CURLM *multi) {
  pthread_mutex_lock(&stop->lock);
  stop->api = api;
  stop->multi = multi;
  pthread_mutex_unlock(&stop->lock);
}

/* One transfer's state, shared by curl's callbacks. */
typedef struct ps_curl_transfer {
  const ps_curl_callbacks *callbacks;
  ps_curl_stop *stop;
  /* The header lines of the response being read (reset by each status line). */
  char *lines;
  size_t length, capacity;
  int status;
  bool head_sent;
  /* The switch was thrown, or a callback said stop. */
  bool stopped;
  /* The header lines passed PS_CURL_HEAD_MAX, or memory for them ran out. */
  bool head_refused;
} ps_curl_transfer;

/* Whether the transfer is to stop (and remembers it). */
static bool ps_curl_stopping(ps_curl_transfer *t) {
  if (!t->stopped && ps_curl_stop_thrown(t->stop)) t->stopped = true;
  return t->stopped;
}

/* Reports the head unless it has been; false when the transfer is to stop. */
static bool ps_curl_send_head(ps_curl_transfer *t) {
  if (t->head_sent) return true;
  t->head_sent = true;
  if (!t->callbacks->head(t->callbacks->context, t->status, t->lines ? t->lines : "", t->length))
    t->stopped = true;
  return !t->stopped;
}

/* The status of a status line ("HTTP/1.1 200 OK", "HTTP/2 404"); 0 when it has none. */
static int ps_curl_status(const char *line, size_t length) {
  const char *space = memchr(line, ' ', length);
  if (!space) return 0;
  size_t at = (size_t)(space - line) + 1;
  int status = 0;
  for (int i = 0; i < 3; i++, at++) {
    if (at >= length || line[at] < '0' || line[at] > '9') return 0;
    status = status * 10 + (line[at] - '0');
  }
  return status;
}

/* CURLOPT_HEADERFUNCTION: collects the lines of the response head; reports the head at the
 * blank line that ends a final (not 1xx) response's. */
static size_t ps_curl_on_header(char *line, size_t size, size_t count, void *data) {
  ps_curl_transfer *t = data;
  size_t length = size * count;
  if (ps_curl_stopping(t)) return 0;
  if (t->head_sent) return length; /* trailers */
  if (length >= 5 && memcmp(line, "HTTP/", 5) == 0) {
    t->length = 0;
    t->status = ps_curl_status(line, length);
    return length;
  }
  if ((length == 2 && line[0] == '\r' && line[1] == '\n') || (length == 1 && line[0] == '\n')) {
    if (t->status >= 200 && !ps_curl_send_head(t)) return 0;
    return length;
  }
  if (t->length + length > PS_CURL_HEAD_MAX) {
    t->head_refused = true;
    return 0;
  }
  if (t->length + length > t->capacity) {
    size_t capacity = t->capacity ? t->capacity : 1024;
    while (capacity < t->length + length) capacity *= 2;
    char *grown = realloc(t->lines, capacity);
    if (!grown) {
      t->head_refused = true;
      return 0;
    }
    t->lines = grown;
    t->capacity = capacity;
  }
  memcpy(t->lines + t->length, line, length);
  t->length += length;
  return length;
}

/* CURLOPT_WRITEFUNCTION: hands a chunk of the body on, the head first if it has not gone. */
static size_t ps_curl_on_body(char *bytes, size_t size, size_t count, void *data) {
  ps_curl_transfer *t = data;
  size_t length = size * count;
  if (ps_curl_stopping(t) || !ps_curl_send_head(t)) return length ? 0 : 1;
  if (length && !t->callbacks->body(t->callbacks->context, bytes, length)) {
    t->stopped = true;
    return 0;
  }
  return length;
}

/* The outcome of a transfer that curl ended with `code`. */
static ps_curl_outcome ps_curl_classify(CURLcode code) {
  switch (code) {
  case CURLE_OK: return PS_CURL_COMPLETE;
  case CURLE_OPERATION_TIMEDOUT: return PS_CURL_TIMED_OUT;
  case CURLE_COULDNT_CONNECT: return PS_CURL_CANNOT_CONNECT;
  case CURLE_COULDNT_RESOLVE_HOST:
  case CURLE_COULDNT_RESOLVE_PROXY: return PS_CURL_CANNOT_RESOLVE;
  case CURLE_SSL_CONNECT_ERROR:
  case CURLE_PEER_FAILED_VERIFICATION:
  case CURLE_SSL_CERTPROBLEM:
  case CURLE_SSL_CIPHER:
  case CURLE_SSL_CACERT_BADFILE:
  case CURLE_SSL_CRL_BADFILE:
  case CURLE_SSL_ISSUER_ERROR:
  case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
  case CURLE_SSL_INVALIDCERTSTATUS:
  case CURLE_SSL_SHUTDOWN_FAILED:
  case CURLE_SSL_ENGINE_NOTFOUND:
  case CURLE_SSL_ENGINE_SETFAILED:
  case CURLE_SSL_ENGINE_INITFAILED:
  case CURLE_USE_SSL_FAILED: return PS_CURL_INSECURE;
  case CURLE_PARTIAL_FILE:
  case CURLE_RECV_ERROR:
  case CURLE_SEND_ERROR:
  case CURLE_HTTP2_STREAM: return PS_CURL_CONNECTION_LOST;
  default: return PS_CURL_FAILED;
  }
}

/* Sets the options of `easy` for `request` reporting to `t`; the first failure's code. */
static CURLcode ps_curl_configure(const ps_curl_api *api, CURL *easy, const ps_curl_request *request,
                                  struct curl_slist *headers, ps_curl_transfer *t, char *error) {
  CURLcode code = CURLE_OK;
#define PS_CURL_SET(option, value) \
  if (code == CURLE_OK) code = api->easy_setopt(easy, option, value);
  PS_CURL_SET(CURLOPT_ERRORBUFFER, error)
  PS_CURL_SET(CURLOPT_URL, request->url)
  PS_CURL_SET(CURLOPT_NOSIGNAL, 1L)
  PS_CURL_SET(CURLOPT_FOLLOWLOCATION, 0L)
  PS_CURL_SET(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L)
  PS_CURL_SET(CURLOPT_HTTPHEADER, headers)
  PS_CURL_SET(CURLOPT_HEADERFUNCTION, ps_curl_on_header)
  PS_CURL_SET(CURLOPT_HEADERDATA, t)
  PS_CURL_SET(CURLOPT_WRITEFUNCTION, ps_curl_on_body)
  PS_CURL_SET(CURLOPT_WRITEDATA, t)
  if (request->timeout_seconds > 0) PS_CURL_SET(CURLOPT_TIMEOUT, request->timeout_seconds)
  if (strcmp(request->method, "GET") == 0) {
    PS_CURL_SET(CURLOPT_HTTPGET, 1L)
  } else {
    PS_CURL_SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_length)
    PS_CURL_SET(CURLOPT_POSTFIELDS, request->body ? request->body : "")
    if (strcmp(request->method, "POST") != 0) PS_CURL_SET(CURLOPT_CUSTOMREQUEST, request->method)
  }
  if (code != CURLE_OK) return code;
  /* http and https only: CURLOPT_PROTOCOLS_STR from 7.85, the bit mask before it. */
  if (api->easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https") != CURLE_OK)
    code = api->easy_setopt(easy, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#undef PS_CURL_SET
  return code;
}

/* Runs `easy` on a multi handle of its own until it ends or the transfer stops, so that a
 * thrown stop switch can wake the wait for the network; curl's code for how it ended. */
static CURLcode ps_curl_run(const ps_curl_api *api, CURL *easy, ps_curl_transfer *t, char *error) {
  CURLM *multi = api->multi_init();
  if (!multi) return CURLE_OUT_OF_MEMORY;
  CURLMcode failed = api->multi_add_handle(multi, easy);
  ps_curl_stop_attach(t->stop, api, multi);
  int running = 1;
  while (failed == CURLM_OK && running && !ps_curl_stopping(t)) {
    failed = api->multi_perform(multi, &running);
    if (failed == CURLM_OK && running && !ps_curl_stopping(t))
      failed = api->multi_poll(multi, NULL, 0, PS_CURL_POLL_MS, NULL);
  }
  ps_curl_stop_attach(t->stop, NULL, NULL);
  CURLcode code = CURLE_OK;
  if (failed != CURLM_OK) {
    code = CURLE_FAILED_INIT;
    snprintf(error, CURL_ERROR_SIZE, "%s", api->multi_strerror(failed));
  } else if (!running) {
    int left = 0;
    for (CURLMsg *message; (message = api->multi_info_read(multi, &left));) {
      if (message->msg == CURLMSG_DONE) code = message->data.result;
    }
  }
  api->multi_remove_handle(multi, easy);
  api->multi_cleanup(multi);
  return code;
}

ps_curl_result ps_curl_perform(const char *library, const ps_curl_request *request,
                               const ps_curl_callbacks *callbacks, ps_curl_stop *stop) {
  ps_curl_result result = {.outcome = PS_CURL_COMPLETE, .code = 0, .message = ""};
  const ps_curl_api *api = ps_curl_load(library, result.message, sizeof result.message);
  if (!api) {
    result.outcome = PS_CURL_UNAVAILABLE;
    return result;
  }
  ps_curl_transfer t = {.callbacks = callbacks, .stop = stop};
  char error[CURL_ERROR_SIZE] = "";
  struct curl_slist *headers = NULL;
  bool listed = true;
  for (size_t i = 0; i < request->header_count && listed; i++) {
    struct curl_slist *longer = api->slist_append(headers, request->headers[i]);
    if (longer) headers = longer;
    else listed = false;
  }
  CURL *easy = listed ? api->easy_init() : NULL;
  CURLcode code = easy ? ps_curl_configure(api, easy, request, headers, &t, error) : CURLE_OUT_OF_MEMORY;
  if (code == CURLE_OK) code = ps_curl_run(api, easy, &t, error);
  if (easy) api->easy_cleanup(easy);
  api->slist_free_all(headers);

  if (ps_curl_stopping(&t)) {
    result.outcome = PS_CURL_STOPPED;
  } else if (t.head_refused) {
    result.outcome = PS_CURL_FAILED;
    snprintf(result.message, sizeof result.message, "the response head is more than %d bytes", PS_CURL_HEAD_MAX);
  } else if (code == CURLE_OK) {
    /* An empty body: the head has not gone unless its blank line was seen. */
    result.outcome = ps_curl_send_head(&t) ? PS_CURL_COMPLETE : PS_CURL_STOPPED;
  } else {
    result.outcome = ps_curl_classify(code);
    result.code = (int)code;
    snprintf(result.message, sizeof result.message, "%s", error[0] ? error : api->easy_strerror(code));
  }
  free(t.lines);
  return result;
}

#endif
