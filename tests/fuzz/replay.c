/*
 * replay.c -- main() for a fuzz target outside libFuzzer: runs each input
 * named on the command line (a file, or every file in a directory) once
 * through LLVMFuzzerTestOneInput. A broken promise aborts, so the program
 * fails; otherwise it says how many inputs passed. This is how the seed
 * corpus runs as an ordinary ctest test (fuzz_corpus_<target>) in every
 * build, the ASan/UBSan build included, with no clang or libFuzzer.
 *
 *   fuzz_modes_replay tests/fuzz/corpus/fuzz_modes/seed-01 ...
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned long replayed;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;

    if (f == NULL) {
        perror(path);
        return 1;
    }
    for (;;) {
        if (n == cap) {
            uint8_t *b = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (b == NULL) {
                fprintf(stderr, "%s: out of memory\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = b;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        if (k == 0)
            break;
        n += k;
    }
    if (ferror(f)) {
        perror(path);
        free(buf);
        fclose(f);
        return 1;
    }
    fclose(f);
    /* An exact-size copy, as libFuzzer passes it: ASan sees overreads. */
    uint8_t *data = malloc(n ? n : 1);
    if (data == NULL) {
        free(buf);
        return 1;
    }
    if (n)
        memcpy(data, buf, n);
    free(buf);
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    replayed++;
    return 0;
}

static int run_path(const char *path)
{
    struct stat st;
    DIR *d;
    struct dirent *e;
    int err = 0;

    if (stat(path, &st) != 0) {
        perror(path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    if ((d = opendir(path)) == NULL) {
        perror(path);
        return 1;
    }
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(path) + strlen(e->d_name) + 2;
        char *sub;
        if (e->d_name[0] == '.')
            continue;
        if ((sub = malloc(len)) == NULL) {
            err = 1;
            break;
        }
        snprintf(sub, len, "%s/%s", path, e->d_name);
        err |= run_path(sub);
        free(sub);
    }
    closedir(d);
    return err;
}

int main(int argc, char **argv)
{
    int err = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++)
        err |= run_path(argv[i]);
    printf("%lu inputs replayed%s\n", replayed, err ? ", some unreadable" : "");
    return err;
}
