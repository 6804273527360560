/* One HTTP transfer over libcurl, which is opened on the first one (ps_curl_transfer.c). This
 * header names no type of curl's: the module that imports it cannot call libcurl itself, and
 * needs neither curl's headers nor a link to it. */
#ifndef PS_CURL_TRANSFER_H
#define PS_CURL_TRANSFER_H
#include <stdbool.h>
#include <stddef.h>

/* The request: where it goes, how, and what it sends. */
typedef struct ps_curl_request {
  /* The URL, http or https (no other protocol is allowed). */
  const char *url;
  /* "GET"; "POST", or any other method, sends `body`. */
  const char *method;
  /* Header lines as sent, "Name: value" ("Name;" for an empty value, "Name:" to keep curl from
   * sending a header of its own); `header_count` of them. */
  const char *const *headers;
  size_t header_count;
  /* The body, `body_length` bytes (NULL when empty); not sent for a GET. */
  const void *body;
  size_t body_length;
  /* The longest the whole transfer may take, in seconds; 0 for no limit. */
  long timeout_seconds;
} ps_curl_request;

/* Where the transfer reports, all called on the thread of ps_curl_perform; `context` is
 * handed to each. A call that returns false stops the transfer, as its stop switch does:
 * nothing is reported after it. */
typedef struct ps_curl_callbacks {
  void *context;
  /* The response head, once, before the first byte of the body (for an empty body, before
   * ps_curl_perform returns): the status, and the header lines that followed the status line
   * ("Name: value\r\n" each, as received, `length` bytes, not NUL-terminated). Interim (1xx)
   * responses are not reported, nor a proxy's answer to CONNECT, nor trailers. */
  bool (*head)(void *context, int status, const char *lines, size_t length);
  /* The next `length` bytes of the body, in order (never 0). */
  bool (*body)(void *context, const void *bytes, size_t length);
} ps_curl_callbacks;

/* A transfer's stop switch: made before the transfer, thrown from any thread, freed once the
 * transfer has returned and nothing will throw it again. */
typedef struct ps_curl_stop ps_curl_stop;

/* A stop switch not thrown; NULL when out of memory. */
ps_curl_stop *ps_curl_stop_new(void);

/* Throws `stop`: the transfer it was given to stops at once, even while it waits for the
 * network (curl_multi_wakeup), and reports nothing more once the report under way, if any,
 * has returned. Throwing it again, or after the transfer, does nothing. */
void ps_curl_stop_throw(ps_curl_stop *stop);

/* Whether `stop` has been thrown. */
bool ps_curl_stop_thrown(ps_curl_stop *stop);

/* Frees `stop`. */
void ps_curl_stop_free(ps_curl_stop *stop);

/* How a transfer ended, as a caller tells its failures apart. */
typedef enum ps_curl_outcome {
  /* The whole body arrived, and the head was reported. */
  PS_CURL_COMPLETE = 0,
  /* The stop switch or a callback stopped it. */
  PS_CURL_STOPPED,
  /* libcurl could not be loaded; the message says why and what to do. */
  PS_CURL_UNAVAILABLE,
  /* The timeout, or curl's connect timeout, ran out. */
  PS_CURL_TIMED_OUT,
  /* The host refused or did not answer the connection. */
  PS_CURL_CANNOT_CONNECT,
  /* The host's (or proxy's) name did not resolve. */
  PS_CURL_CANNOT_RESOLVE,
  /* TLS failed: the handshake, or the server's certificate. */
  PS_CURL_INSECURE,
  /* The connection broke before the response ended. */
  PS_CURL_CONNECTION_LOST,
  /* Anything else; the message is curl's. */
  PS_CURL_FAILED,
} ps_curl_outcome;

/* The end of a transfer. */
typedef struct ps_curl_result {
  ps_curl_outcome outcome;
  /* curl's CURLcode (0 when curl was not reached or did not fail). */
  int code;
  /* One line: curl's own explanation of a failure, or why the library cannot be had; empty
   * when complete. */
  char message[512];
} ps_curl_result;

/* Performs one transfer of `request` with libcurl (the file `library`, as dlopen takes it:
 * "libcurl.so.4"), reporting to `callbacks` until it ends or `stop` is thrown, and returns how
 * it ended. Blocks until then; any number may run at once, on different threads, each with a
 * stop switch of its own. Redirects are reported, not followed; no signal is used; the body
 * comes as it was sent (curl decodes no Content-Encoding). */
ps_curl_result ps_curl_perform(const char *library, const ps_curl_request *request,
                               const ps_curl_callbacks *callbacks, ps_curl_stop *stop);

#endif
