#include "teardown_digest.h"

// Nettle's contexts are plain structs: a state that copies as bytes keeps Fingerprint a value
// type without an allocation per digest. Nettle rather than OpenSSL's libcrypto: a command that
// takes digests and downloads nothing maps a third of the pages (Benchmarks/README.md), and its
// SHA-256 uses the CPU's SHA instructions as OpenSSL's does.
#include <dlfcn.h>
#include <nettle/md5.h>
#include <nettle/memops.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(sizeof(struct sha256_ctx) <= sizeof(td_sha256_state), "td_sha256_state is too small for sha256_ctx");

// libnettle is opened on first use, not linked: `--version`, help and an idle command map
// less. Each function is called through a pointer of its own type, named as the library
// exports it (nettle's headers rename `sha256_init` and the others by macros).
#define TD_NETTLE_FUNCTIONS(X) \
    X(nettle_sha256_init) X(nettle_sha256_update) X(nettle_sha256_digest) \
    X(nettle_md5_init) X(nettle_md5_update) X(nettle_md5_digest) X(nettle_memeql_sec)

static struct {
#define TD_POINTER(name) __typeof__(name) *name;
    TD_NETTLE_FUNCTIONS(TD_POINTER)
#undef TD_POINTER
} td_nettle;

static pthread_once_t td_nettle_once = PTHREAD_ONCE_INIT;

/// Without the library no digest can be taken, and every cache and output is keyed by one: this
/// ends the process with the reason, as the dynamic loader did when the library was linked.
static void td_nettle_open(void) {
    void *library = dlopen("libnettle.so.8", RTLD_NOW | RTLD_LOCAL);
#define TD_RESOLVE(name) \
    if (!library || !(td_nettle.name = (__typeof__(td_nettle.name))dlsym(library, #name))) { \
        fprintf(stderr, "teardown: libnettle (Nettle 3) cannot be loaded: %s\n", library ? #name : dlerror()); \
        exit(1); \
    }
    TD_NETTLE_FUNCTIONS(TD_RESOLVE)
#undef TD_RESOLVE
}

static inline void td_nettle_load(void) { pthread_once(&td_nettle_once, td_nettle_open); }

void td_sha256_start(td_sha256_state *state) {
    td_nettle_load();
    td_nettle.nettle_sha256_init((struct sha256_ctx *)state);
}

// A state exists only after td_sha256_start, which loaded the library.
void td_sha256_add(td_sha256_state *state, const void *bytes, size_t count) {
    if (count > 0) td_nettle.nettle_sha256_update((struct sha256_ctx *)state, count, bytes);
}

void td_sha256_finish(td_sha256_state *state, uint8_t digest[32]) {
    td_nettle.nettle_sha256_digest((struct sha256_ctx *)state, SHA256_DIGEST_SIZE, digest);
}

void td_md5(const void *bytes, size_t count, uint8_t digest[16]) {
    td_nettle_load();
    struct md5_ctx context;
    td_nettle.nettle_md5_init(&context);
    td_nettle.nettle_md5_update(&context, count, bytes);
    td_nettle.nettle_md5_digest(&context, MD5_DIGEST_SIZE, digest);
}

int td_equal_in_constant_time(const void *first, const void *second, size_t count) {
    td_nettle_load();
    return td_nettle.nettle_memeql_sec(first, second, count);
}
