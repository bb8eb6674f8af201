#include "CLibFuzzer.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

// Weak, so a normal link resolves it to NULL; `-sanitize=fuzzer` links libFuzzer, which defines it.
extern int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *, size_t)) __attribute__((weak));

static int replay_file(const char *path, cfz_test_one_input test) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return 1; }
    size_t capacity = 1 << 16, size = 0;
    uint8_t *data = malloc(capacity);
    size_t n;
    while (data && (n = fread(data + size, 1, capacity - size, f)) > 0) {
        size += n;
        if (size == capacity) { capacity *= 2; data = realloc(data, capacity); }
    }
    fclose(f);
    if (!data) { fprintf(stderr, "%s: out of memory\n", path); return 1; }
    fprintf(stderr, "replaying %s (%zu bytes)\n", path, size);
    test(data, size);
    free(data);
    return 0;
}

static int replay(const char *path, cfz_test_one_input test) {
    struct stat st;
    if (stat(path, &st) != 0) { perror(path); return 1; }
    if (!S_ISDIR(st.st_mode)) return replay_file(path, test);
    DIR *dir = opendir(path);
    if (!dir) { perror(path); return 1; }
    int failed = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        size_t length = strlen(path) + strlen(entry->d_name) + 2;
        char *child = malloc(length);
        snprintf(child, length, "%s/%s", path, entry->d_name);
        failed |= replay_file(child, test);
        free(child);
    }
    closedir(dir);
    return failed;
}

int cfz_main(int argc, char **argv, cfz_test_one_input test) {
    if (LLVMFuzzerRunDriver) return LLVMFuzzerRunDriver(&argc, &argv, test);
    int failed = 0;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-') continue;  // a libFuzzer flag; meaningless when replaying
        failed |= replay(argv[i], test);
    }
    return failed;
}
