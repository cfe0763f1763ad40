/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what the API fuzz targets share. Each target turns libFuzzer's bytes into
 * descriptors, arguments, buffers and data, predicts from the manual in wgscan.h which
 * result codes the call may return, calls the library, and checks the outcome:
 *   - a refused call returns one of the codes its violated rules name (the library may
 *     check them in any order), never another one, and leaves its out-parameter NULL;
 *   - a call that breaks no rule succeeds, and its output equals the CPU reference
 *     (reference/), bit for bit where the manual says so, within the manual's rounding
 *     bound for float sums;
 *   - bytes outside the documented output ranges are never written.
 * A violation prints what happened and aborts, so libFuzzer keeps the input as a crash.
 *
 * One wgs_context serves the whole process (creating one takes seconds on SwiftShader);
 * plans and buffers are made and released per input.
 */
#ifndef WGS_FUZZ_HARNESS_H
#define WGS_FUZZ_HARNESS_H

#include "wgscan.h"

#include <stddef.h>
#include <stdint.h>

/* Largest element count an input runs with when every rule holds: SwiftShader runs on
 * the CPU, and an input should take milliseconds. The small-tile context (see
 * fz_begin) runs up to FZ_MAX_N_SMALL_TILES, past its capped storage binding. */
#define FZ_MAX_N 4096u
#define FZ_MAX_N_SMALL_TILES 20000u

/* Findings of these fuzzers that are reported and not fixed yet: each is tolerated
 * (the call may return that code) so the fuzzer can go past it. Build with
 * -DFZ_STRICT to check them again. */
#ifndef FZ_STRICT
/* Plans whose scratch exceeds maxBufferSize (a capacity near 2^40) failed with
 * WGS_ERROR_GPU_VALIDATION from the buffer creation, not WGS_ERROR_TOO_LARGE (reduce;
 * fixed there by 7cdf8ad, no longer tolerated in fuzz_reduce; still tolerated for
 * scan, select and alloc plans until their corpora pass with FZ_STRICT). */
#define FZ_TOLERATE_SCRATCH_VALIDATION 1
#endif

/* ---- reading the input ----------------------------------------------------------- */
typedef struct fz {
    const uint8_t *p;
    size_t n, i;
} fz;

/* Bytes past the end read as 0, so every input is a complete program. */
uint32_t fz_u8(fz *f);
uint32_t fz_u16(fz *f);
uint32_t fz_u32(fz *f);
uint64_t fz_u64(fz *f);
/* A value in [0, count). */
uint32_t fz_below(fz *f, uint32_t count);
/* 1 with probability 1/k. */
int fz_one_in(fz *f, uint32_t k);
/* An enum value: mostly 0..last (0 is the default), sometimes a value past the list or
 * a wild 32-bit value (negative ones too). */
int32_t fz_enum(fz *f, int32_t last);
/* A size: mostly small, sometimes around powers of two up to `max`, sometimes huge
 * (2^32 +- 1, 2^62, 2^64 - k) for the refusals. */
uint64_t fz_size(fz *f, uint64_t max);
/* A double for predicate operands and histogram bounds: small integers, halves,
 * extremes of the integer types, and now and then raw bits. */
double fz_double(fz *f);

/* ---- the context ------------------------------------------------------------------ */
/* Picks this input's context from its first byte: mostly the ordinary one; one input in
 * four the small-tile context, made through the experimental door with tiles of 64 to
 * 256 elements, a storage binding capped at 64 KiB, 3 workgroups per grid dimension and
 * look-back that falls back after one fruitless step, so that n of a few thousand
 * reaches the multi-level scan's levels, arrays split over bindings, folded grids and
 * the fallbacks. Both are made once per process, when first needed. */
void fz_begin(fz *f);
wgs_context *fz_context(void);
const wgs_context_info *fz_info(void);
/* FZ_MAX_N, or FZ_MAX_N_SMALL_TILES in the small-tile context. */
uint64_t fz_max_n(void);
/* Whether this input runs in the small-tile context. */
int fz_small_tiles(void);

/* ---- expected results -------------------------------------------------------------- */
typedef struct fz_expect {
    uint32_t must; /* codes of broken rules: the call must fail with one of them */
    uint32_t may;  /* codes the call may return whatever the rules say */
} fz_expect;

#define FZ_CODE(r) (1u << (unsigned)(r))
void fz_must(fz_expect *e, wgs_result code);
void fz_may(fz_expect *e, wgs_result code);
/* A rule broken where the manual is not explicit that it is checked (n = 0, a field the
 * configuration does not use): the call may succeed or fail with `code`. */
void fz_rule(fz_expect *e, int broken, wgs_result code, int lenient);
/* Checks `got` against `e`; aborts on a violation. Returns 1 when the call succeeded. */
int fz_check(const char *call, wgs_result got, fz_expect e);
/* Aborts with a message (printf format) and the context's last error. */
void fz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ---- buffers ------------------------------------------------------------------------ */
typedef struct fz_buffer {
    WGPUBuffer b;
    uint64_t size; /* as created (a multiple of 4) */
    WGPUBufferUsage usage;
    uint64_t offset; /* where the role's range begins */
    uint8_t *init;   /* the contents it was created with (size bytes) */
} fz_buffer;

/* A buffer for a role needing `bytes` from its offset: the offset is usually 0 or a
 * multiple of the storage offset alignment, sometimes misaligned; the buffer usually
 * holds the range exactly or with slack, sometimes 4 bytes too few; its usage usually
 * Storage | CopySrc | CopyDst, sometimes without Storage; sometimes there is no buffer
 * (NULL). Its bytes are filled with `fill` (a sentinel for outputs, data for inputs;
 * NULL: 0xA5). Adds the rules the role breaks to `e` (lenient: may rather than must). */
fz_buffer fz_buffer_for(fz *f, uint64_t bytes, const void *fill, fz_expect *e, int lenient);
/* Adds the rules of a wgscan buffer argument (see "Buffers passed to wgs_scan_encode"). */
void fz_buffer_rules(const fz_buffer *b, uint64_t bytes, fz_expect *e, int lenient);
/* Reads the whole buffer into `out` (size bytes); aborts if the read fails. */
void fz_buffer_download(const fz_buffer *b, void *out);
void fz_buffer_release(fz_buffer *b);

/* An encoder; submits it and waits. Submit must succeed when `must_succeed`. */
WGPUCommandEncoder fz_encoder(void);
void fz_submit(WGPUCommandEncoder enc, int must_succeed);

/* ---- data ----------------------------------------------------------------------------- */
/* Fills n elements of `type` (4 bytes each, 2 for f16) in one of several styles read
 * from the input: raw input bytes, few distinct values (runs), small exact floats,
 * full-range random, sorted, and float edges (NaN of both signs, infinities, -0,
 * subnormals, the largest and smallest normals: wgscan.h "Floats" defines them).
 * for_sum: finite magnitudes stay where no sum of FZ_MAX_N overflows (an overflowing
 * partial sum may be an infinity, as the manual says). Returns 1 when every value is a
 * multiple of 1/8 with magnitude sum small enough that any order of f32 (f16)
 * additions is exact. */
int fz_fill(fz *f, void *data, wgs_type type, uint64_t n, int for_sum);
/* The same for raw u32 words (payloads, flags as bytes via fz_fill_bytes). */
void fz_fill_words(fz *f, uint32_t *data, uint64_t n);
void fz_fill_bytes(fz *f, uint8_t *data, uint64_t n);

/* Aborts unless the bytes of `got` outside [from, to) equal `sentinel`'s. */
void fz_check_untouched(const char *what, const uint8_t *got, const uint8_t *sentinel, uint64_t size,
                        uint64_t from, uint64_t to);


#endif
