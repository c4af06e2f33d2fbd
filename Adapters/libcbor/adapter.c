/* TrustSuite adapter for libcbor (family cbor, wellFormed mode), built
 * against Debian's libcbor-dev by Adapters/build.sh.
 *
 * The protocol (spec/vectors.md) in plain C: the runner's request lines are
 * JSON objects whose fields this adapter reads (id, family, cborHex, mode,
 * tagValidity) are strings without escapes or a boolean, so a field is
 * found by its quoted name; anything else is answered "unsupported". */
#include <cbor.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LIBCBOR_DEBIAN_VERSION
#define LIBCBOR_DEBIAN_VERSION "unknown"
#endif

/* The value of `"key": "..."` in line, copied into out (at most size-1
 * bytes); 0 when absent, not a string, or too long. */
static int string_field(const char *line, const char *key, char *out, size_t size) {
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"%s\"", key);
    const char *p = strstr(line, quoted);
    if (!p) return 0;
    p += strlen(quoted);
    while (*p == ' ') p++;
    if (*p++ != ':') return 0;
    while (*p == ' ') p++;
    if (*p++ != '"') return 0;
    const char *end = strchr(p, '"');
    if (!end || (size_t)(end - p) >= size) return 0;
    memcpy(out, p, (size_t)(end - p));
    out[end - p] = '\0';
    return 1;
}

/* Whether `"key": true` is in line. */
static int true_field(const char *line, const char *key) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"%s\":true", key);
    char spaced[64];
    snprintf(spaced, sizeof spaced, "\"%s\": true", key);
    return strstr(line, pattern) != NULL || strstr(line, spaced) != NULL;
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static const char *load_error(cbor_error_code code) {
    switch (code) {
    case CBOR_ERR_NOTENOUGHDATA: return "CBOR_ERR_NOTENOUGHDATA";
    case CBOR_ERR_NODATA: return "CBOR_ERR_NODATA";
    case CBOR_ERR_MALFORMATED: return "CBOR_ERR_MALFORMATED";
    case CBOR_ERR_MEMERROR: return "CBOR_ERR_MEMERROR";
    case CBOR_ERR_SYNTAXERROR: return "CBOR_ERR_SYNTAXERROR";
    default: return "CBOR_ERR_NONE";
    }
}

static void reply(const char *id, const char *result, const char *error) {
    if (error)
        printf("{\"id\":\"%s\",\"result\":\"%s\",\"error\":\"%s\"}\n", id, result, error);
    else
        printf("{\"id\":\"%s\",\"result\":\"%s\"}\n", id, result);
    fflush(stdout);
}

/* cbor_load decodes the first item (its result says how many bytes it
 * read): anything after it is refused, as a caller decoding a whole
 * document must. */
static void answer(const char *line, char *id, char *buffer, size_t size) {
    char family[64], mode[64];
    if (!string_field(line, "family", family, sizeof family) || strcmp(family, "cbor") != 0) {
        reply(id, "unsupported", "family is not mapped by this adapter");
        return;
    }
    if (!string_field(line, "mode", mode, sizeof mode)) strcpy(mode, "wellFormed");
    if (strcmp(mode, "wellFormed") != 0) {
        reply(id, "unsupported", "libcbor has no deterministic or ctap2 decoding mode");
        return;
    }
    if (true_field(line, "tagValidity")) {
        reply(id, "unsupported", "libcbor has no option that checks tag content (tagValidity)");
        return;
    }
    if (!string_field(line, "cborHex", buffer, size)) {
        reply(id, "unsupported", "no cborHex");
        return;
    }
    size_t length = strlen(buffer) / 2;
    unsigned char *data = (unsigned char *)buffer;
    for (size_t i = 0; i < length; i++) {
        int hi = hexval(buffer[2 * i]), lo = hexval(buffer[2 * i + 1]);
        if (hi < 0 || lo < 0) { reply(id, "unsupported", "cborHex is not hex"); return; }
        data[i] = (unsigned char)(hi * 16 + lo);
    }
    struct cbor_load_result result;
    cbor_item_t *item = cbor_load(data, length, &result);
    if (item == NULL) {
        char text[128];
        snprintf(text, sizeof text, "cbor_load: %s at byte %zu", load_error(result.error.code), result.error.position);
        reply(id, "invalid", text);
        return;
    }
    cbor_decref(&item);
    if (result.read != length) {
        char text[128];
        snprintf(text, sizeof text, "%zu trailing bytes after the item", length - result.read);
        reply(id, "invalid", text);
        return;
    }
    reply(id, "valid", NULL);
}

int main(void) {
    printf("{\"adapter\":\"libcbor\",\"version\":\"%s\",\"families\":[\"cbor\"]}\n", LIBCBOR_DEBIAN_VERSION);
    fflush(stdout);
    char *line = NULL;
    size_t capacity = 0;
    ssize_t got;
    while ((got = getline(&line, &capacity, stdin)) > 0) {
        char id[64];
        if (!string_field(line, "id", id, sizeof id)) continue;
        char *buffer = malloc((size_t)got + 1);
        if (!buffer) return 1;
        answer(line, id, buffer, (size_t)got + 1);
        free(buffer);
    }
    free(line);
    return 0;
}
