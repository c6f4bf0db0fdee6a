#include "teardown_fetch.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t global_once = PTHREAD_ONCE_INIT;

static void global_init(void) {
    curl_global_init(CURL_GLOBAL_DEFAULT);
}

struct sink {
    FILE *file;
    long long written;
    long long limit;
    int too_large;
};

static size_t write_body(char *data, size_t size, size_t count, void *context) {
    struct sink *sink = context;
    size_t bytes = size * count;
    if (sink->written + (long long)bytes > sink->limit) {
        sink->too_large = 1;
        return 0;
    }
    if (fwrite(data, 1, bytes, sink->file) != bytes) return 0;
    sink->written += (long long)bytes;
    return bytes;
}

int td_fetch(const char *url, const char *path, long long max_bytes, long stall_seconds, long total_seconds,
             const char *bearer_token, char *error, size_t error_size) {
    pthread_once(&global_once, global_init);
    error[0] = '\0';
    FILE *file = fopen(path, "wb");
    if (!file) {
        snprintf(error, error_size, "cannot write %s", path);
        return -1;
    }
    CURL *curl = curl_easy_init();
    if (!curl) {
        fclose(file);
        snprintf(error, error_size, "libcurl could not start");
        return -1;
    }
    char message[CURL_ERROR_SIZE] = {0};
    struct sink sink = {file, 0, max_bytes, 0};
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
    if (fclose(file) != 0 && result == CURLE_OK) {
        snprintf(error, error_size, "cannot write %s", path);
        return -1;
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
