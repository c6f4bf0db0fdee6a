#ifndef TEARDOWN_FETCH_H
#define TEARDOWN_FETCH_H

#include <stddef.h>

/// Downloads an http, https or ftp URL into the file at `path` with libcurl.
/// Fails (and leaves a partial file for the caller to remove) past `max_bytes`, on an HTTP
/// status of 400 or more, a missing FTP file, a transfer that stalls for `stall_seconds`, or one
/// that takes longer than `total_seconds` in all.
/// A non-empty `bearer_token` is sent as "Authorization: Bearer <token>" (http and https).
/// Returns 0 on success; otherwise -1 with a message in `error`.
int td_fetch(const char *url, const char *path, long long max_bytes, long stall_seconds, long total_seconds,
             const char *bearer_token, char *error, size_t error_size);

#endif
