#ifndef TEARDOWN_DIGEST_H
#define TEARDOWN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256 and MD5 from the system's Nettle, behind a header without its types.

/// The state of a SHA-256 in progress, as plain bytes: copying it forks the digest, which is
/// how a fingerprint reads its digest and goes on adding.
typedef struct {
    uint64_t words[16];
} td_sha256_state;

void td_sha256_start(td_sha256_state *state);
void td_sha256_add(td_sha256_state *state, const void *bytes, size_t count);
/// Writes the 32 bytes of the digest; the state is spent.
void td_sha256_finish(td_sha256_state *state, uint8_t digest[32]);

/// The 16 bytes of MD5, which S3 uses as the ETag of an object uploaded whole.
void td_md5(const void *bytes, size_t count, uint8_t digest[16]);

/// Whether two buffers of `count` bytes are equal, in a time that does not depend on where they differ.
int td_equal_in_constant_time(const void *first, const void *second, size_t count);

#endif
