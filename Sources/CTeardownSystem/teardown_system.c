#define _GNU_SOURCE
#include "teardown_system.h"

#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <netdb.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int td_exchange(const char *first, const char *second) {
#ifdef SYS_renameat2
    return (int)syscall(SYS_renameat2, AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int64_t td_file_system_type(const char *path) {
    struct statfs info;
    if (statfs(path, &info) != 0) return -1;
    return (int64_t)info.f_type;
}

int td_identity(const char *path, uint64_t *device, uint64_t *inode, int64_t *birth_seconds, uint32_t *birth_nanoseconds) {
#if defined(STATX_BTIME)
    struct statx info;
    if (statx(AT_FDCWD, path, 0, STATX_INO | STATX_BTIME, &info) == 0) {
        *device = ((uint64_t)info.stx_dev_major << 32) | info.stx_dev_minor;
        *inode = info.stx_ino;
        if (info.stx_mask & STATX_BTIME) {
            *birth_seconds = info.stx_btime.tv_sec;
            *birth_nanoseconds = info.stx_btime.tv_nsec;
        } else {
            *birth_seconds = 0;
            *birth_nanoseconds = 0;
        }
        return 0;
    }
    if (errno != ENOSYS) return -1;
#endif
    struct stat plain;
    if (stat(path, &plain) != 0) return -1;
    *device = (uint64_t)plain.st_dev;
    *inode = (uint64_t)plain.st_ino;
    *birth_seconds = 0;
    *birth_nanoseconds = 0;
    return 0;
}

int td_port_check(const char *host, int port) {
    char service[16];
    snprintf(service, sizeof service, "%d", port);
    struct addrinfo hints = {0}, *found = NULL;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE;
    if (getaddrinfo(host, service, &hints, &found) != 0 || found == NULL) return -1;
    int result = 0;
    int fd = socket(found->ai_family, found->ai_socktype, found->ai_protocol);
    if (fd < 0) {
        result = errno;
    } else {
        int yes = 1;
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (bind(fd, found->ai_addr, found->ai_addrlen) != 0) result = errno;
        close(fd);
    }
    freeaddrinfo(found);
    return result;
}

int td_contains(const void *haystack, size_t haystack_length, const void *needle, size_t needle_length) {
    if (needle_length == 0) return 1;
    if (haystack == NULL || haystack_length < needle_length) return 0;
    return memmem(haystack, haystack_length, needle, needle_length) != NULL;
}

void td_give_back_memory(void) {
    malloc_trim(0);
}

void td_map_large_blocks(size_t bytes) {
    /* glibc's own setting, when given, is the operator's choice. */
    if (getenv("MALLOC_MMAP_THRESHOLD_") != NULL) return;
    mallopt(M_MMAP_THRESHOLD, (int)bytes);
}

/* glibc's default of eight allocator arenas a core let each worker thread of a build keep an
 * arena of its own, which a process that stays up (`sync --follow`, `serve`, `intake`) held on
 * to; with one a core it holds half as much at rest, and builds take as long (Benchmarks/README.md,
 * "The resident publisher"). glibc fixes the limit when a thread first needs an arena, before
 * Swift's main runs, hence a constructor. */
__attribute__((constructor)) static void td_limit_arenas(void) {
    /* glibc's own setting, when given, is the operator's choice. */
    if (getenv("MALLOC_ARENA_MAX") != NULL) return;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    mallopt(M_ARENA_MAX, cores > 0 ? (int)cores : 1);
}
