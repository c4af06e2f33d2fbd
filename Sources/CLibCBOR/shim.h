#ifndef TRUSTSUITE_CLIBCBOR_SHIM_H
#define TRUSTSUITE_CLIBCBOR_SHIM_H
// libcbor (Debian libcbor-dev), the second CBOR decoder of the
// FuzzCBORDifferential harness (Sources/FuzzTargets/LibCBOR.swift).
#include <cbor.h>
#include <stdbool.h>
#include <stddef.h>

/// What a walk over an input with libcbor's streaming decoder saw, head by
/// head, before cbor_load builds anything.
struct trustsuite_cbor_scan {
    /// Offset of the head where the walk stopped (the input's length when
    /// libcbor read every head).
    size_t stop;
    /// Whether the walk stopped on an error (not on missing bytes).
    bool error;
    /// A definite array or map declares more elements than bytes remain:
    /// the input cannot be complete, and cbor_load would allocate the
    /// declared count up front (8 bytes per element) before finding out.
    bool countBeyondInput;
    /// A half-precision NaN other than 0x7e00 / 0xfe00 (libcbor widens every
    /// half NaN to the default NaN, dropping its payload).
    bool halfNaNPayload;
};

struct trustsuite_cbor_walk {
    size_t remaining;
    bool countBeyondInput;
};

static inline void trustsuite_cbor_array_start(void *context, size_t size) {
    struct trustsuite_cbor_walk *walk = (struct trustsuite_cbor_walk *)context;
    if (size > walk->remaining) walk->countBeyondInput = true;
}

static inline void trustsuite_cbor_map_start(void *context, size_t size) {
    struct trustsuite_cbor_walk *walk = (struct trustsuite_cbor_walk *)context;
    if (size > walk->remaining / 2) walk->countBeyondInput = true;
}

/// Walks `data` one head at a time (a definite string with its payload).
/// A count is compared with the bytes from its own head on, which never
/// flags an input that could be complete: every element takes a byte.
static inline struct trustsuite_cbor_scan trustsuite_cbor_scan_heads(const unsigned char *data, size_t size) {
    struct cbor_callbacks callbacks = cbor_empty_callbacks;
    callbacks.array_start = trustsuite_cbor_array_start;
    callbacks.map_start = trustsuite_cbor_map_start;
    struct trustsuite_cbor_walk walk = {0, false};
    struct trustsuite_cbor_scan scan = {0, false, false, false};
    size_t offset = 0;
    while (offset < size) {
        walk.remaining = size - offset;
        struct cbor_decoder_result result = cbor_stream_decode(data + offset, size - offset, &callbacks, &walk);
        if (result.status != CBOR_DECODER_FINISHED || result.read == 0) {
            scan.error = result.status == CBOR_DECODER_ERROR;
            break;
        }
        if (data[offset] == 0xF9 && result.read == 3) {
            unsigned half = ((unsigned)data[offset + 1] << 8 | data[offset + 2]) & 0x7FFF;
            if ((half & 0x7C00) == 0x7C00 && (half & 0x03FF) != 0 && half != 0x7E00) scan.halfNaNPayload = true;
        }
        offset += result.read;
    }
    scan.stop = offset;
    scan.countBeyondInput = walk.countBeyondInput;
    return scan;
}
#endif
