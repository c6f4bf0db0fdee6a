#include "teardown_digest.h"

// SHA256_CTX is a plain struct: a state that copies as bytes keeps Fingerprint a value type
// without an allocation per digest (EVP contexts are heap objects with a fetch each). OpenSSL
// 3 marks these calls deprecated, not removed.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/crypto.h>
#include <openssl/md5.h>
#include <openssl/sha.h>

_Static_assert(sizeof(SHA256_CTX) <= sizeof(td_sha256_state), "td_sha256_state is too small for SHA256_CTX");

void td_sha256_start(td_sha256_state *state) { SHA256_Init((SHA256_CTX *)state); }

void td_sha256_add(td_sha256_state *state, const void *bytes, size_t count) {
    if (count > 0) SHA256_Update((SHA256_CTX *)state, bytes, count);
}

void td_sha256_finish(td_sha256_state *state, uint8_t digest[32]) { SHA256_Final(digest, (SHA256_CTX *)state); }

void td_md5(const void *bytes, size_t count, uint8_t digest[16]) { MD5(bytes, count, digest); }

int td_equal_in_constant_time(const void *first, const void *second, size_t count) {
    return CRYPTO_memcmp(first, second, count) == 0;
}
