#ifndef TEARDOWN_FETCH_H
#define TEARDOWN_FETCH_H

#include <stddef.h>

/// Downloads an http, https or ftp URL into the file at `path` with libcurl.
/// Fails (and leaves a partial file for the caller to remove) past `max_bytes`, on an HTTP
/// status of 400 or more, a missing FTP file, a transfer that stalls for `stall_seconds`, or one
/// that takes longer than `total_seconds` in all.
/// A non-empty `bearer_token` is sent as "Authorization: Bearer <token>" (http and https).
/// Returns 0 on success; otherwise -1 with a message in `error`, or -2 when the file at `path`
/// could not be written (the receiving side failed, not the server).
int td_fetch(const char *url, const char *path, long long max_bytes, long stall_seconds, long total_seconds,
             const char *bearer_token, char *error, size_t error_size);

/// One connection to an S3-compatible store, reused across requests: one per worker thread.
typedef struct td_s3_session td_s3_session;

td_s3_session *td_s3_open(void);
void td_s3_close(td_s3_session *session);

/// What a request got back. `body` holds up to `max_body` bytes of the answer; free it with
/// td_s3_response_free.
typedef struct {
    long status;
    char *body;
    size_t body_size;
    char etag[130];
} td_s3_response;

/// Sends one request signed with AWS Signature Version 4 by libcurl (CURLOPT_AWS_SIGV4).
/// `headers` is a NULL-terminated list of "Name: value" lines and must hold
/// x-amz-content-sha256, which libcurl signs as given. `body` (may be NULL) is sent as the
/// request's body: PUT uploads it, POST posts it. A connection failure or timeout returns -1
/// with a message in `error`; any HTTP answer returns 0 with its status in `response`.
int td_s3_request(td_s3_session *session, const char *method, const char *url, const char *region,
                  const char *key_id, const char *secret, const char *const *headers,
                  const void *body, size_t body_size, size_t max_body, long total_seconds,
                  td_s3_response *response, char *error, size_t error_size);

void td_s3_response_free(td_s3_response *response);

#endif
