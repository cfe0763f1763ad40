/* SPDX-License-Identifier: MIT */
/*
 * count_parse.h: the one parser of counts (sizes, repeats, bins) that both programs,
 * wgscan and wgscan-mpi, read their arguments with, so a size means the same in both.
 * Header-only (static functions): each program compiles it into its own option parsing
 * without a library of its own.
 *
 * prog_parse_count: 1000, 1e6, 1.5e3, 2^24, 16M, 1Gi (K M G T: powers of 1000; Ki Mi
 * Gi Ti: of 1024; k is K); no sign, no spaces, exact (1.5 is refused, 1.5K is 1500),
 * at most 2^64 - 1 (a value past it is refused, never wrapped). 0 on success, -1 for
 * anything but a whole, well-formed value; *out is untouched then. Ranges are the
 * caller's.
 */
#ifndef WGSCAN_COUNT_PARSE_H
#define WGSCAN_COUNT_PARSE_H

#include <stdint.h>
#include <string.h>

/* v * m, or -1 when it does not fit 64 bits. */
static inline int prog_mul_u64(uint64_t *v, uint64_t m) {
    if (m && *v > UINT64_MAX / m) return -1;
    *v *= m;
    return 0;
}

static inline int prog_pow_u64(uint64_t b, unsigned e, uint64_t *out) {
    uint64_t r = 1;
    for (unsigned k = 0; k < e; k++)
        if (prog_mul_u64(&r, b)) return -1;
    *out = r;
    return 0;
}

static inline int prog_is_digit(char c) { return c >= '0' && c <= '9'; }

/* Decimal digits into *v (at least one), checked for overflow; the first character
 * after them, or NULL. */
static inline const char *prog_read_digits(const char *s, uint64_t *v, unsigned *count) {
    *v = 0;
    *count = 0;
    for (; prog_is_digit(*s); s++, (*count)++)
        if (prog_mul_u64(v, 10) || *v > UINT64_MAX - (uint64_t)(*s - '0')) return NULL;
        else *v += (uint64_t)(*s - '0');
    return *count ? s : NULL;
}

static inline int prog_parse_count(const char *s, uint64_t *out) {
    if (!s || !prog_is_digit(*s)) return -1; /* no sign, no spaces, not empty */
    const char *caret = strchr(s, '^');
    uint64_t v, e;
    unsigned nd;
    if (caret) { /* b^e */
        const char *p = prog_read_digits(s, &v, &nd);
        if (p != caret || v < 2) return -1;
        p = prog_read_digits(caret + 1, &e, &nd);
        if (!p || *p || e > 64) return -1;
        return prog_pow_u64(v, (unsigned)e, out);
    }
    /* digits [. digits] [e digits] [K|M|G|T [i]]: all the digits as one integer, then
     * scaled by powers of ten and the suffix; the result must come out whole. */
    uint64_t mant = 0;
    int scale = 0; /* the value is mant * 10^-scale before the exponent */
    for (; prog_is_digit(*s) || *s == '.'; s++) {
        if (*s == '.') {
            if (scale || !prog_is_digit(s[1])) return -1; /* one point, digits after it */
            scale = -1;                                   /* counted up from the next digit */
            continue;
        }
        if (prog_mul_u64(&mant, 10) || mant > UINT64_MAX - (uint64_t)(*s - '0')) return -1;
        mant += (uint64_t)(*s - '0');
        if (scale < 0) scale--;
    }
    scale = scale < 0 ? -scale - 1 : 0;
    if (*s == 'e' || *s == 'E') {
        const char *p = prog_read_digits(s + 1, &e, &nd);
        if (!p || e > 40) return -1;
        s = p;
        scale -= (int)e;
    }
    uint64_t mult = 1;
    const char *suffixes = "KMGT";
    const char *k = *s ? strchr(suffixes, *s == 'k' ? 'K' : *s) : NULL;
    if (k) {
        unsigned power = (unsigned)(k - suffixes) + 1;
        s++;
        if (*s == 'i') s++, mult = 1ull << (10 * power);
        else scale -= 3 * (int)power;
    }
    if (*s) return -1;
    if (scale < 0) {
        uint64_t p10;
        if (prog_pow_u64(10, (unsigned)-scale, &p10) || prog_mul_u64(&mant, p10)) return -1;
        scale = 0;
    }
    if (prog_mul_u64(&mant, mult)) return -1;
    uint64_t div;
    if (prog_pow_u64(10, (unsigned)scale, &div) || mant % div) return -1; /* not whole */
    *out = mant / div;
    return 0;
}

#endif
