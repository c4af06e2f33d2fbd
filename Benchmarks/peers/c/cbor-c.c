/* Timing loops for Benchmarks/compare.sh: libcbor as Debian packages it
 * (libcbor-dev). Output lines, read by the script:
 *   time DECODER PAYLOAD NS_PER_DECODE   (one round: the mean over ~0.25 s)
 *   peak DECODER PAYLOAD KIB             (ru_maxrss after one cbor_load)
 * libcbor-load builds the whole item tree (cbor_load, then cbor_decref);
 * libcbor-lexer runs the streaming lexer (cbor_stream_decode with empty
 * callbacks) over the input, one head at a time: it checks heads and
 * lengths, not structure.
 * Usage: cbor-c round FILE... | cbor-c peak FILE */
#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static const double round_ns = 250e6;

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

static volatile size_t sink;

static void load(const unsigned char *data, size_t size) {
    struct cbor_load_result result;
    cbor_item_t *item = cbor_load(data, size, &result);
    sink += result.read;
    if (item != NULL) cbor_decref(&item);
}

static void lex(const unsigned char *data, size_t size) {
    size_t at = 0;
    while (at < size) {
        struct cbor_decoder_result r = cbor_stream_decode(data + at, size - at, &cbor_empty_callbacks, NULL);
        if (r.status != CBOR_DECODER_FINISHED || r.read == 0) break;
        at += r.read;
    }
    sink += at;
}

static double time_it(void (*body)(const unsigned char *, size_t), const unsigned char *data, size_t size) {
    body(data, size); /* warm up, untimed: a first call may bind symbols and fault pages in */
    double first = now_ns();
    body(data, size); /* size the batch between clock reads */
    int batch = now_ns() - first > 10e3 ? 1 : 64;
    long calls = 0;
    double start = now_ns(), elapsed;
    do {
        for (int i = 0; i < batch; i++) body(data, size);
        calls += batch;
        elapsed = now_ns() - start;
    } while (elapsed < round_ns);
    return elapsed / calls;
}

static unsigned char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) { perror(path); exit(1); }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc(n > 0 ? (size_t)n : 1);
    if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) { perror(path); exit(1); }
    fclose(f);
    *size = (size_t)n;
    return data;
}

static const char *base(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: cbor-c round FILE... | cbor-c peak FILE\n"); return 2; }
    if (strcmp(argv[1], "round") == 0) {
        for (int i = 2; i < argc; i++) {
            size_t size;
            unsigned char *data = read_file(argv[i], &size);
            printf("time libcbor-load %s %.1f\n", base(argv[i]), time_it(load, data, size));
            printf("time libcbor-lexer %s %.1f\n", base(argv[i]), time_it(lex, data, size));
            free(data);
        }
    } else {
        size_t size;
        unsigned char *data = read_file(argv[2], &size);
        load(data, size);
        struct rusage usage;
        getrusage(RUSAGE_SELF, &usage);
        printf("peak libcbor-load %s %ld\n", base(argv[2]), usage.ru_maxrss);
    }
    return 0;
}
