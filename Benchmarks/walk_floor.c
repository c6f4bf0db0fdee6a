/*
 * The walk floor: the least a one-shot command that must see hand edits can do.
 *
 *     walk_floor LIST
 *
 * LIST holds one path a line, every file and folder of a site's inputs, as a build's stored
 * snapshot would name them. The program reads it and stats every path, the paths split over
 * one thread a core, and prints how many it stat'ed. A rebuild's targets are set against the
 * wall time of this whole process (its start and exit included), measured in the same run on
 * the same tree: nothing slower than the kernel's path lookups is left in it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct slice {
    char **paths;
    size_t count;
    size_t found;
};

static void *stat_slice(void *argument) {
    struct slice *slice = argument;
    struct stat info;
    for (size_t i = 0; i < slice->count; i++) {
        if (lstat(slice->paths[i], &info) == 0) slice->found++;
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: walk_floor LIST\n");
        return 2;
    }
    FILE *list = fopen(argv[1], "r");
    if (!list) {
        perror(argv[1]);
        return 1;
    }
    size_t capacity = 1 << 16, count = 0;
    char **paths = malloc(capacity * sizeof *paths);
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    while ((length = getline(&line, &size, list)) > 0) {
        if (line[length - 1] == '\n') line[--length] = 0;
        if (count == capacity) paths = realloc(paths, (capacity *= 2) * sizeof *paths);
        paths[count++] = strndup(line, (size_t)length);
    }
    fclose(list);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    if (cores < 1) cores = 1;
    pthread_t threads[cores];
    struct slice slices[cores];
    size_t share = (count + (size_t)cores - 1) / (size_t)cores;
    for (long t = 0; t < cores; t++) {
        size_t start = (size_t)t * share < count ? (size_t)t * share : count;
        size_t end = start + share < count ? start + share : count;
        slices[t] = (struct slice){paths + start, end - start, 0};
        pthread_create(&threads[t], NULL, stat_slice, &slices[t]);
    }
    size_t found = 0;
    for (long t = 0; t < cores; t++) {
        pthread_join(threads[t], NULL);
        found += slices[t].found;
    }
    printf("%zu of %zu paths stat'ed on %ld cores\n", found, count, cores);
    return found == count ? 0 : 1;
}
