#include "teardown_fetch.h"

#include <curl/curl.h>
#include <errno.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <strings.h>
#include <stdio.h>
#include <string.h>

// libcurl is opened on first use, not linked: only a sync from a remote inbox and a deploy
// need it, and the thirty libraries it brings (TLS, Kerberos, LDAP, SSH...) were a fifth of
// every command's start-up memory (Benchmarks/README.md). Each function is called through a
// pointer of its own declared type.
#define TD_CURL_FUNCTIONS(X) \
    X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_perform) \
    X(curl_easy_reset) X(curl_easy_setopt) X(curl_easy_strerror) X(curl_global_init) \
    X(curl_slist_append) X(curl_slist_free_all)

static struct {
#define TD_POINTER(name) __typeof__(name) *name;
    TD_CURL_FUNCTIONS(TD_POINTER)
#undef TD_POINTER
} td_curl;

static pthread_once_t global_once = PTHREAD_ONCE_INIT;
static char curl_problem[512];

static void global_init(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        snprintf(curl_problem, sizeof curl_problem, "libcurl is not installed (%s): install libcurl4",
                 reason ? reason : "libcurl.so.4 not found");
        return;
    }
#define TD_RESOLVE(name) \
    if (!(td_curl.name = (__typeof__(td_curl.name))dlsym(library, #name))) { \
        snprintf(curl_problem, sizeof curl_problem, "libcurl lacks %s: it is older than Teardown needs", #name); \
        return; \
    }
    TD_CURL_FUNCTIONS(TD_RESOLVE)
#undef TD_RESOLVE
    td_curl.curl_global_init(CURL_GLOBAL_DEFAULT);
}

// From here on, each libcurl function named is the pointer resolved above (curl.h declares
// curl_easy_setopt and curl_easy_getinfo as type-checking macros too).
#undef curl_easy_setopt
#undef curl_easy_getinfo
#define curl_easy_cleanup td_curl.curl_easy_cleanup
#define curl_easy_getinfo td_curl.curl_easy_getinfo
#define curl_easy_init td_curl.curl_easy_init
#define curl_easy_perform td_curl.curl_easy_perform
#define curl_easy_reset td_curl.curl_easy_reset
#define curl_easy_setopt td_curl.curl_easy_setopt
#define curl_easy_strerror td_curl.curl_easy_strerror
#define curl_global_init td_curl.curl_global_init
#define curl_slist_append td_curl.curl_slist_append
#define curl_slist_free_all td_curl.curl_slist_free_all

struct sink {
    FILE *file;
    long long written;
    long long limit;
    int too_large;
    int write_errno;
};

static size_t write_body(char *data, size_t size, size_t count, void *context) {
    struct sink *sink = context;
    size_t bytes = size * count;
    if (sink->written + (long long)bytes > sink->limit) {
        sink->too_large = 1;
        return 0;
    }
    if (fwrite(data, 1, bytes, sink->file) != bytes) {
        sink->write_errno = errno ? errno : EIO;
        return 0;
    }
    sink->written += (long long)bytes;
    return bytes;
}

int td_fetch(const char *url, const char *path, long long max_bytes, long stall_seconds, long total_seconds,
             const char *bearer_token, char *error, size_t error_size) {
    pthread_once(&global_once, global_init);
    if (curl_problem[0]) {
        snprintf(error, error_size, "%s", curl_problem);
        return -1;
    }
    error[0] = '\0';
    FILE *file = fopen(path, "wb");
    if (!file) {
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(errno));
        return -2;
    }
    CURL *curl = curl_easy_init();
    if (!curl) {
        fclose(file);
        snprintf(error, error_size, "libcurl could not start");
        return -1;
    }
    char message[CURL_ERROR_SIZE] = {0};
    struct sink sink = {file, 0, max_bytes, 0, 0};
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https,ftp");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
    curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, stall_seconds);
    /* A server dripping a byte a second never stalls: the whole transfer has a deadline too. */
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, total_seconds);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, message);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "teardown-sync");
    // libcurl drops a custom Authorization header when a redirect leaves the host.
    struct curl_slist *headers = NULL;
    if (bearer_token && bearer_token[0]) {
        char header[600];
        snprintf(header, sizeof header, "Authorization: Bearer %s", bearer_token);
        headers = curl_slist_append(NULL, header);
        curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    }
    CURLcode result = curl_easy_perform(curl);
    curl_easy_cleanup(curl);
    curl_slist_free_all(headers);
    int closed = fclose(file) == 0 ? 0 : errno;
    if (sink.write_errno || (closed && result == CURLE_OK)) {
        snprintf(error, error_size, "cannot write %s: %s", path, strerror(sink.write_errno ? sink.write_errno : closed));
        return -2;
    }
    if (sink.too_large) {
        snprintf(error, error_size, "larger than %lld bytes", max_bytes);
        return -1;
    }
    if (result != CURLE_OK) {
        snprintf(error, error_size, "%s", message[0] ? message : curl_easy_strerror(result));
        return -1;
    }
    return 0;
}

/* S3: one easy handle per session, so that its connection is kept between requests. */

struct td_s3_session {
    CURL *curl;
};

td_s3_session *td_s3_open(void) {
    pthread_once(&global_once, global_init);
    if (curl_problem[0]) return NULL;
    td_s3_session *session = calloc(1, sizeof *session);
    if (!session) return NULL;
    session->curl = curl_easy_init();
    if (!session->curl) {
        free(session);
        return NULL;
    }
    return session;
}

void td_s3_close(td_s3_session *session) {
    if (!session) return;
    curl_easy_cleanup(session->curl);
    free(session);
}

struct upload {
    const char *data;
    size_t size;
    size_t sent;
};

static size_t read_upload(char *buffer, size_t size, size_t count, void *context) {
    struct upload *upload = context;
    size_t left = upload->size - upload->sent;
    size_t bytes = size * count < left ? size * count : left;
    memcpy(buffer, upload->data + upload->sent, bytes);
    upload->sent += bytes;
    return bytes;
}

/* Rewinds the body when libcurl sends it again (after a redirect or an auth round). */
static int seek_upload(void *context, curl_off_t offset, int origin) {
    struct upload *upload = context;
    if (origin != SEEK_SET || offset < 0 || (size_t)offset > upload->size) return CURL_SEEKFUNC_FAIL;
    upload->sent = (size_t)offset;
    return CURL_SEEKFUNC_OK;
}

struct answer {
    td_s3_response *response;
    size_t limit;
};

static size_t write_answer(char *data, size_t size, size_t count, void *context) {
    struct answer *answer = context;
    size_t bytes = size * count;
    td_s3_response *response = answer->response;
    size_t keep = response->body_size + bytes > answer->limit ? answer->limit - response->body_size : bytes;
    if (keep > 0) {
        char *grown = realloc(response->body, response->body_size + keep + 1);
        if (!grown) return 0;
        response->body = grown;
        memcpy(response->body + response->body_size, data, keep);
        response->body_size += keep;
        response->body[response->body_size] = '\0';
    }
    return bytes;
}

static size_t read_header(char *data, size_t size, size_t count, void *context) {
    td_s3_response *response = context;
    size_t bytes = size * count;
    if (bytes > 5 && strncasecmp(data, "etag:", 5) == 0) {
        size_t start = 5;
        while (start < bytes && (data[start] == ' ' || data[start] == '"')) start++;
        size_t end = bytes;
        while (end > start && (data[end - 1] == '\r' || data[end - 1] == '\n' || data[end - 1] == ' ' || data[end - 1] == '"')) end--;
        size_t length = end - start < sizeof response->etag - 1 ? end - start : sizeof response->etag - 1;
        memcpy(response->etag, data + start, length);
        response->etag[length] = '\0';
    }
    return bytes;
}

int td_s3_request(td_s3_session *session, const char *method, const char *url, const char *region,
                  const char *key_id, const char *secret, const char *const *headers,
                  const void *body, size_t body_size, size_t max_body, long total_seconds,
                  td_s3_response *response, char *error, size_t error_size) {
    error[0] = '\0';
    memset(response, 0, sizeof *response);
    CURL *curl = session->curl;
    curl_easy_reset(curl);
    char message[CURL_ERROR_SIZE] = {0};
    char provider[160];
    snprintf(provider, sizeof provider, "aws:amz:%s:s3", region);
    struct curl_slist *list = NULL;
    for (const char *const *header = headers; header && *header; header++) list = curl_slist_append(list, *header);
    struct upload upload = {body, body_size, 0};
    struct answer answer = {response, max_body};

    curl_easy_setopt(curl, CURLOPT_URL, url);
    /* The key as it is: collapsing "../" would send, and sign, another object's name than the one asked for. */
    curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 15L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT, total_seconds);
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, message);
    curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, provider);
    curl_easy_setopt(curl, CURLOPT_USERNAME, key_id);
    curl_easy_setopt(curl, CURLOPT_PASSWORD, secret);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "teardown-deploy");
    /* No pause for "100 Continue" before each body. Removing the Expect header instead would
       put it among the headers libcurl signs, and the signature would no longer match. */
    curl_easy_setopt(curl, CURLOPT_EXPECT_100_TIMEOUT_MS, 0L);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_answer);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &answer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, read_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, response);
    if (strcmp(method, "PUT") == 0) {
        curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
        curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
        curl_easy_setopt(curl, CURLOPT_SEEKFUNCTION, seek_upload);
        curl_easy_setopt(curl, CURLOPT_SEEKDATA, &upload);
        curl_easy_setopt(curl, CURLOPT_INFILESIZE_LARGE, (curl_off_t)body_size);
    } else if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body ? (const char *)body : "");
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_size);
    } else if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
    } else if (strcmp(method, "GET") != 0) {
        curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
    }
    CURLcode result = curl_easy_perform(curl);
    curl_slist_free_all(list);
    if (result != CURLE_OK) {
        snprintf(error, error_size, "%s", message[0] ? message : curl_easy_strerror(result));
        td_s3_response_free(response);
        return -1;
    }
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response->status);
    return 0;
}

void td_s3_response_free(td_s3_response *response) {
    free(response->body);
    response->body = NULL;
    response->body_size = 0;
}
