#include "ccurl.h"

#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <dlfcn.h>
#include <unistd.h>

// libcurl's declarations, as in curl.h and multi.h (libcurl 7.68 or later: multi_poll and
// multi_wakeup). Handles are opaque; options pass through the variadic setopt.
typedef void CURL;
typedef void CURLM;
struct curl_slist;
typedef int curl_socket_t;
struct curl_sockaddr {
    int family;
    int socktype;
    int protocol;
    unsigned int addrlen;
    struct sockaddr addr;  // the start of an address of `addrlen` bytes
};
typedef struct {
    int msg;
    CURL *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
} CURLMsg;

// libcurl's functions, found in the library when live values first start
// (ccurl_global_init): a server without them never maps libcurl and the two dozen libraries it
// needs, which took about 7 ms of every start (a C program linked with libcurl against one
// that is not: 7.7 against 0.7 ms of CPU).
#define CURL_FUNCTIONS(X) \
    X(int, curl_global_init, (long flags)) \
    X(CURL *, curl_easy_init, (void)) \
    X(void, curl_easy_cleanup, (CURL *handle)) \
    X(int, curl_easy_setopt, (CURL *handle, int option, ...)) \
    X(int, curl_easy_getinfo, (CURL *handle, int info, ...)) \
    X(const char *, curl_easy_strerror, (int code)) \
    X(struct curl_slist *, curl_slist_append, (struct curl_slist *list, const char *text)) \
    X(void, curl_slist_free_all, (struct curl_slist *list)) \
    X(CURLM *, curl_multi_init, (void)) \
    X(int, curl_multi_cleanup, (CURLM *multi)) \
    X(int, curl_multi_add_handle, (CURLM *multi, CURL *handle)) \
    X(int, curl_multi_remove_handle, (CURLM *multi, CURL *handle)) \
    X(int, curl_multi_perform, (CURLM *multi, int *running)) \
    X(int, curl_multi_poll, (CURLM *multi, void *extra, unsigned count, int timeout_ms, int *ready)) \
    X(int, curl_multi_wakeup, (CURLM *multi)) \
    X(CURLMsg *, curl_multi_info_read, (CURLM *multi, int *left))

#define DECLARE(type, name, parameters) static type(*p_##name) parameters;
CURL_FUNCTIONS(DECLARE)
#undef DECLARE

// Option and info numbers: a type base (long 0, pointer 10000, function 20000, off_t 30000;
// info string 0x100000, long 0x200000) plus the option's number.
enum {
    OPT_WRITEDATA = 10001,
    OPT_URL = 10002,
    OPT_PROXY = 10004,
    OPT_WRITEFUNCTION = 20011,
    OPT_USERAGENT = 10018,
    OPT_HTTPHEADER = 10023,
    OPT_HEADERDATA = 10029,
    OPT_NOPROGRESS = 43,
    OPT_FOLLOWLOCATION = 52,
    OPT_HEADERFUNCTION = 20079,
    OPT_HTTP_VERSION = 84,
    OPT_NOSIGNAL = 99,
    OPT_PRIVATE = 10103,
    OPT_MAXFILESIZE_LARGE = 30117,
    OPT_TIMEOUT_MS = 155,
    OPT_CONNECTTIMEOUT_MS = 156,
    OPT_OPENSOCKETFUNCTION = 20163,
    OPT_OPENSOCKETDATA = 10164,
    OPT_NOPROXY = 10177,
    OPT_PROTOCOLS = 181,
    OPT_REDIR_PROTOCOLS = 182,
    OPT_RESOLVE = 10203,
    OPT_PROTOCOLS_STR = 10318,
    OPT_REDIR_PROTOCOLS_STR = 10319,
    INFO_PRIVATE = 0x100000 + 21,
    INFO_REDIRECT_URL = 0x100000 + 31,
    INFO_RESPONSE_CODE = 0x200000 + 2,
    GLOBAL_ALL = 3,
    HTTP_VERSION_1_1 = 2,
    PROTO_HTTP = 1,
    PROTO_HTTPS = 2,
    MSG_DONE = 1,
    SOCKTYPE_IPCXN = 0,
};

/// What a transfer owns besides its easy handle: its header list and resolve list, which
/// libcurl reads until the handle is cleaned up, and the caller's context and check.
struct transfer {
    CURL *easy;
    struct curl_slist *headers;
    struct curl_slist *resolve;
    void *context;
    ccurl_address_function check_address;
};

static curl_socket_t open_socket(void *data, int purpose, struct curl_sockaddr *address) {
    struct transfer *transfer = data;
    if (purpose != SOCKTYPE_IPCXN) return -1;
    if (!transfer->check_address(transfer->context, &address->addr, address->addrlen)) return -1;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

int ccurl_global_init(void) {
#ifdef __APPLE__
    void *library = dlopen("libcurl.4.dylib", RTLD_NOW | RTLD_LOCAL);
#else
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
#endif
    if (library == NULL) return -1;
#define LOAD(type, name, parameters) \
    if ((p_##name = (type(*) parameters)dlsym(library, #name)) == NULL) return -1;
    CURL_FUNCTIONS(LOAD)
#undef LOAD
    return p_curl_global_init(GLOBAL_ALL);
}

void *ccurl_multi_new(void) { return p_curl_multi_init(); }

void ccurl_multi_free(void *multi) { p_curl_multi_cleanup(multi); }

int ccurl_multi_add(void *multi, void *transfer) {
    return p_curl_multi_add_handle(multi, ((struct transfer *)transfer)->easy);
}

static void transfer_free(struct transfer *transfer) {
    p_curl_easy_cleanup(transfer->easy);
    p_curl_slist_free_all(transfer->headers);
    p_curl_slist_free_all(transfer->resolve);
    free(transfer);
}

void ccurl_multi_remove(void *multi, void *transfer) {
    p_curl_multi_remove_handle(multi, ((struct transfer *)transfer)->easy);
    transfer_free(transfer);
}

int ccurl_multi_perform(void *multi) {
    int running = 0;
    return p_curl_multi_perform(multi, &running);
}

int ccurl_multi_poll(void *multi, int timeout_ms) {
    int ready = 0;
    return p_curl_multi_poll(multi, NULL, 0, timeout_ms, &ready);
}

int ccurl_multi_wakeup(void *multi) { return p_curl_multi_wakeup(multi); }

void *ccurl_multi_next_done(void *multi, int *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = p_curl_multi_info_read(multi, &left)) != NULL) {
        if (message->msg != MSG_DONE) continue;
        char *owner = NULL;
        p_curl_easy_getinfo(message->easy_handle, INFO_PRIVATE, &owner);
        *result = message->data.result;
        return owner;
    }
    return NULL;
}

void *ccurl_transfer_new(const struct ccurl_request *request) {
    struct transfer *transfer = calloc(1, sizeof *transfer);
    if (transfer == NULL) return NULL;
    transfer->easy = p_curl_easy_init();
    transfer->context = request->context;
    transfer->check_address = request->check_address;
    transfer->headers = p_curl_slist_append(NULL, request->accept);
    int resolve_failed = 0;
    if (request->resolve != NULL) {
        // One entry a line: `-host:port` removals first, then `host:port:addresses`.
        const char *line = request->resolve;
        while (*line != '\0' && !resolve_failed) {
            const char *end = strchr(line, '\n');
            size_t length = end != NULL ? (size_t)(end - line) : strlen(line);
            char *entry = strndup(line, length);
            struct curl_slist *appended = entry != NULL ? p_curl_slist_append(transfer->resolve, entry) : NULL;
            free(entry);
            if (appended == NULL) resolve_failed = 1; else transfer->resolve = appended;
            line += length;
            if (*line == '\n') line++;
        }
    }
    if (transfer->easy == NULL || transfer->headers == NULL || resolve_failed) {
        if (transfer->easy != NULL) p_curl_easy_cleanup(transfer->easy);
        p_curl_slist_free_all(transfer->headers);
        p_curl_slist_free_all(transfer->resolve);
        free(transfer);
        return NULL;
    }
    CURL *easy = transfer->easy;
    int failed = 0;
    failed |= p_curl_easy_setopt(easy, OPT_URL, request->url);
    failed |= p_curl_easy_setopt(easy, OPT_PRIVATE, (char *)transfer);
    failed |= p_curl_easy_setopt(easy, OPT_NOSIGNAL, 1L);
    failed |= p_curl_easy_setopt(easy, OPT_NOPROGRESS, 1L);
    // No proxy from the environment: the address checked must be the one connected.
    failed |= p_curl_easy_setopt(easy, OPT_PROXY, "");
    failed |= p_curl_easy_setopt(easy, OPT_NOPROXY, "*");
    // Redirects are judged hop by hop by the caller.
    failed |= p_curl_easy_setopt(easy, OPT_FOLLOWLOCATION, 0L);
    failed |= p_curl_easy_setopt(easy, OPT_HTTP_VERSION, (long)HTTP_VERSION_1_1);
    if (p_curl_easy_setopt(easy, OPT_PROTOCOLS_STR, request->protocols) != 0) {
        // libcurl before 7.85 has only the bit mask.
        long mask = strcmp(request->protocols, "https") == 0 ? PROTO_HTTPS : PROTO_HTTP | PROTO_HTTPS;
        failed |= p_curl_easy_setopt(easy, OPT_PROTOCOLS, mask);
        failed |= p_curl_easy_setopt(easy, OPT_REDIR_PROTOCOLS, mask);
    } else {
        failed |= p_curl_easy_setopt(easy, OPT_REDIR_PROTOCOLS_STR, request->protocols);
    }
    failed |= p_curl_easy_setopt(easy, OPT_USERAGENT, request->user_agent);
    failed |= p_curl_easy_setopt(easy, OPT_HTTPHEADER, transfer->headers);
    if (transfer->resolve != NULL) failed |= p_curl_easy_setopt(easy, OPT_RESOLVE, transfer->resolve);
    failed |= p_curl_easy_setopt(easy, OPT_TIMEOUT_MS, request->timeout_ms);
    failed |= p_curl_easy_setopt(easy, OPT_CONNECTTIMEOUT_MS, request->timeout_ms);
    failed |= p_curl_easy_setopt(easy, OPT_MAXFILESIZE_LARGE, (int64_t)request->max_bytes);
    failed |= p_curl_easy_setopt(easy, OPT_WRITEFUNCTION, request->body);
    failed |= p_curl_easy_setopt(easy, OPT_WRITEDATA, request->context);
    failed |= p_curl_easy_setopt(easy, OPT_HEADERFUNCTION, request->header);
    failed |= p_curl_easy_setopt(easy, OPT_HEADERDATA, request->context);
    failed |= p_curl_easy_setopt(easy, OPT_OPENSOCKETFUNCTION, open_socket);
    failed |= p_curl_easy_setopt(easy, OPT_OPENSOCKETDATA, transfer);
    if (failed) {
        transfer_free(transfer);
        return NULL;
    }
    return transfer;
}

void *ccurl_transfer_context(void *transfer) { return ((struct transfer *)transfer)->context; }

long ccurl_transfer_status(void *transfer) {
    long status = 0;
    p_curl_easy_getinfo(((struct transfer *)transfer)->easy, INFO_RESPONSE_CODE, &status);
    return status;
}

const char *ccurl_transfer_redirect(void *transfer) {
    char *url = NULL;
    p_curl_easy_getinfo(((struct transfer *)transfer)->easy, INFO_REDIRECT_URL, &url);
    return url;
}

const char *ccurl_result_text(int result) { return p_curl_easy_strerror(result); }
