#ifndef TEARDOWN_SYSTEM_H
#define TEARDOWN_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

/// Swaps two paths in one step (renameat2 with RENAME_EXCHANGE).
/// Returns 0, or -1 with errno set; EINVAL or ENOSYS mean the file system cannot.
int td_exchange(const char *first, const char *second);

/// Whether `needle` occurs in `haystack`, by glibc's memmem (a GNU extension Swift does not see).
int td_contains(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length);

/// Identifies a directory across renames: its device, inode and, where the file
/// system records it, its birth time (0 otherwise). Returns 0, or -1 with errno set.
int td_identity(const char *path, uint64_t *device, uint64_t *inode, int64_t *birth_seconds, uint32_t *birth_nanoseconds);

/// The type of the file system holding `path` (statfs's f_type, a magic number), or -1 with
/// errno set.
int64_t td_file_system_type(const char *path);

/// Whether a TCP server could listen on host:port now: binds a socket as a server does
/// (SO_REUSEADDR) and closes it. Returns 0, or the errno of the failure (EADDRINUSE when the
/// port is taken, EACCES below 1024 without the right), or -1 when the host does not resolve.
int td_port_check(const char *host, int port);

/// Gives the allocator's free pages back to the system (glibc's malloc_trim, which Swift does not see).
void td_give_back_memory(void);

/// Blocks of `bytes` or more get pages of their own from the system, returned when freed
/// (glibc's M_MMAP_THRESHOLD, fixed: glibc otherwise raises it to the largest block freed).
void td_map_large_blocks(size_t bytes);


#endif
