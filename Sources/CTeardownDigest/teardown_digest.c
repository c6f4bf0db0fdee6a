#include "teardown_digest.h"

// SHA256_CTX is a plain struct: a state that copies as bytes keeps Fingerprint a value type
// without an allocation per digest (EVP contexts are heap objects with a fetch each). OpenSSL
// 3 marks these calls deprecated, not removed.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <dlfcn.h>
#include <openssl/crypto.h>
#include <openssl/md5.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

_Static_assert(sizeof(SHA256_CTX) <= sizeof(td_sha256_state), "td_sha256_state is too small for SHA256_CTX");

// libcrypto is opened on first use, not linked: `--version`, help and an idle command map
// less (Benchmarks/README.md). Each function is called through a pointer of its own type.
#define TD_CRYPTO_FUNCTIONS(X) X(SHA256_Init) X(SHA256_Update) X(SHA256_Final) X(MD5) X(CRYPTO_memcmp)

static struct {
#define TD_POINTER(name) __typeof__(name) *name;
    TD_CRYPTO_FUNCTIONS(TD_POINTER)
#undef TD_POINTER
} td_crypto;

static pthread_once_t td_crypto_once = PTHREAD_ONCE_INIT;

/// Without libcrypto no digest can be taken, and every cache and output is keyed by one: this
/// ends the process with the reason, as the dynamic loader did when the library was linked.
static void td_crypto_open(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
#define TD_RESOLVE(name) \
    if (!library || !(td_crypto.name = (__typeof__(td_crypto.name))dlsym(library, #name))) { \
        fprintf(stderr, "teardown: libcrypto (OpenSSL 3) cannot be loaded: %s\n", library ? #name : dlerror()); \
        exit(1); \
    }
    TD_CRYPTO_FUNCTIONS(TD_RESOLVE)
#undef TD_RESOLVE
}

static inline void td_crypto_load(void) { pthread_once(&td_crypto_once, td_crypto_open); }

void td_sha256_start(td_sha256_state *state) {
    td_crypto_load();
    td_crypto.SHA256_Init((SHA256_CTX *)state);
}

// A state exists only after td_sha256_start, which loaded the library.
void td_sha256_add(td_sha256_state *state, const void *bytes, size_t count) {
    if (count > 0) td_crypto.SHA256_Update((SHA256_CTX *)state, bytes, count);
}

void td_sha256_finish(td_sha256_state *state, uint8_t digest[32]) { td_crypto.SHA256_Final(digest, (SHA256_CTX *)state); }

void td_md5(const void *bytes, size_t count, uint8_t digest[16]) {
    td_crypto_load();
    td_crypto.MD5(bytes, count, digest);
}

int td_equal_in_constant_time(const void *first, const void *second, size_t count) {
    td_crypto_load();
    return td_crypto.CRYPTO_memcmp(first, second, count) == 0;
}
