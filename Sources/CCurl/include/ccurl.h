// The part of libcurl's interface that the live-value fetcher uses, declared here because the
// machines ring builds on carry libcurl itself (FoundationNetworking links it) but not its
// development headers. Every function is a thin wrapper in ccurl.c; the option numbers there
// are libcurl's stable ABI (curl.h's CURLOPT_* values, which never change once released).
#ifndef CCURL_H
#define CCURL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/// Called with every piece of a response body, or every header line. Returns the bytes taken;
/// anything else stops the transfer.
typedef size_t (*ccurl_data_function)(char *data, size_t size, size_t count, void *context);

/// Called before libcurl opens a socket to `address`: non-zero lets the connection be made.
typedef int (*ccurl_address_function)(void *context, const struct sockaddr *address, unsigned length);

/// One hop of a fetch: everything the transfer is set up with.
struct ccurl_request {
    const char *url;
    /// Lines for libcurl's DNS cache (`CURLOPT_RESOLVE`): `-host:port` removes an entry, and
    /// `host:port:address[,address…]` gives the addresses the name was checked to resolve to, so
    /// that libcurl never resolves the name itself; NULL when there is nothing to give.
    const char *resolve;
    /// "https" or "http,https".
    const char *protocols;
    const char *user_agent;
    /// A whole header line, `Accept: application/json`.
    const char *accept;
    long timeout_ms;
    int64_t max_bytes;
    void *context;
    ccurl_data_function body;
    ccurl_data_function header;
    ccurl_address_function check_address;
};

/// Once per process, before any other call; 0 on success.
int ccurl_global_init(void);

/// A multi handle, or NULL.
void *ccurl_multi_new(void);
void ccurl_multi_free(void *multi);
/// Adds a transfer made by ccurl_transfer_new; 0 on success.
int ccurl_multi_add(void *multi, void *transfer);
/// Removes and frees a transfer.
void ccurl_multi_remove(void *multi, void *transfer);
/// Drives every transfer as far as it can go without blocking; 0 on success.
int ccurl_multi_perform(void *multi);
/// Waits up to `timeout_ms` for a socket event or a wakeup; 0 on success.
int ccurl_multi_poll(void *multi, int timeout_ms);
/// Ends a ccurl_multi_poll at once; callable from any thread.
int ccurl_multi_wakeup(void *multi);
/// A finished transfer and its result code in `*result`, or NULL when none is left.
void *ccurl_multi_next_done(void *multi, int *result);

/// A transfer set up from `request`, or NULL.
void *ccurl_transfer_new(const struct ccurl_request *request);
/// The context the transfer was made with.
void *ccurl_transfer_context(void *transfer);
/// The last response's status code, 0 if none.
long ccurl_transfer_status(void *transfer);
/// The absolute URL a redirect's Location names, or NULL.
const char *ccurl_transfer_redirect(void *transfer);

/// libcurl's text for a result code.
const char *ccurl_result_text(int result);

/// Result codes the fetcher tells apart.
enum {
    CCURL_OK = 0,
    CCURL_COULDNT_RESOLVE_HOST = 6,
    CCURL_COULDNT_CONNECT = 7,
    CCURL_WRITE_ERROR = 23,
    CCURL_OPERATION_TIMEDOUT = 28,
    CCURL_FILESIZE_EXCEEDED = 63,
};

#endif
