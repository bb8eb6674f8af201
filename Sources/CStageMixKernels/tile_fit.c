#include "stagemix_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* A picture fitted to a tile in one pass per output row, with no picture in between: the source
 * rows an output row needs are resampled across into 16-bit values (Q8: the sample times 256; each
 * source row once per picture, kept in a small ring while later output rows need it), combined down
 * straight into the tile's row of the canvas, and that row is converted to the canvas's colour space
 * while it is still in the L1 cache. swscale's order (across, then down), without its general path.
 *
 * Filters, per axis, as swscale computes SWS_AREA's (centre-aligned samples, chroma sited as
 * swscale's default places it for 4:2:0, in the middle of its 2x2 block, so both planes use the
 * same mapping in their own sample counts): shrinking, each output sample is the average of the
 * source area it covers (a box of width n/m, the partly covered samples at its ends weighted by how
 * much of them it covers); growing, bilinear between the two nearest source samples, edges repeated.
 *
 * Arithmetic, the same in the AVX2 and the plain C rows, so they agree to the bit: weights are Q16
 * (sum 65536, a weight of exactly 1 kept as 65535) and every product is (a * w) >> 16 on unsigned
 * 16-bit values, what one AVX2 instruction does to 16 samples (vpmulhuw); sums stay below 65536.
 *
 * Across, a group of 16 output samples is made from two 16-byte loads of the source row (one per
 * 8 samples, one per 128-bit lane) and, per tap, one byte shuffle that puts each sample's tap in
 * the high byte of its 16-bit lane (the sample times 256), one multiply and one add (tap k's shuffle
 * is tap 0's with k added to every offset). That needs
 * every 8 neighbouring samples' windows inside 16 bytes: at most 4 taps, shrinking at most about
 * 1.7:1 across. Down, any number of rows, one multiply and add per row per 16 samples. A fit
 * outside that (shrinking further across: a 1080p ladder's 360p rendition, thumbnails) is refused
 * (smk_fit_create returns NULL) and left to swscale, which has a path for it. */

enum { Q = 16, GROUP = 16, HALF = 8, WINDOW = 16, MAX_ACROSS = 4, MAX_DOWN = 64 };

typedef struct {
    int taps;     /* non-zero weights at most, per output sample */
    int32_t *pos; /* the first source sample of each output sample's window */
    uint16_t *w;  /* taps weights per output sample */
} axis_filter;

/* GROUP output samples made from two windows of the source row: shuffles and weights per tap. */
typedef struct {
    int32_t base[2];                    /* where samples 0-7's window and 8-15's start */
    uint8_t shuffle[32];                /* tap 0's: per sample, the byte pair (0x80, offset); tap k's adds k */
    uint16_t w[MAX_ACROSS][GROUP];      /* per tap: the 16 samples' weights */
} row_group;

typedef struct {
    int src_w, src_h, dst_w, dst_h;
    axis_filter h, v;
    row_group *groups; /* ceil(dst_w / GROUP) */
    /* The resampled source rows the current output row needs (Q8, dst_w each), a ring of v.taps
     * rows: source row j sits in slot j % v.taps. */
    uint16_t *ring;
    int ring_stride;
    int32_t *ring_row;
} plane_fit;

struct smk_fit {
    plane_fit plane[3]; /* luma, Cb, Cr: each with its own ring */
    int16_t *term;      /* the chroma's share of luma, for the colour conversion */
};

static void axis_free(axis_filter *a) {
    free(a->pos);
    free(a->w);
}

/* Weights of output sample i as doubles into `out`; returns the first source index. */
static int axis_weights(int n_src, int n_dst, int i, double *out, int *count) {
    if (n_dst >= n_src) {
        if (n_src == 1) { out[0] = 1; *count = 1; return 0; }
        double x = ((double)i + 0.5) * (double)n_src / (double)n_dst - 0.5;
        if (x <= 0) { out[0] = 1; out[1] = 0; *count = 2; return 0; }
        if (x >= n_src - 1) { out[0] = 0; out[1] = 1; *count = 2; return n_src - 2; }
        int i0 = (int)floor(x);
        double f = x - i0;
        out[0] = 1 - f; out[1] = f; *count = 2;
        return i0;
    }
    double r = (double)n_src / (double)n_dst;
    double lo = i * r, hi = (i + 1) * r;
    int first = (int)floor(lo), last = (int)ceil(hi) - 1;
    if (last > n_src - 1) last = n_src - 1;
    if (first > last) first = last;
    int n = 0;
    for (int j = first; j <= last; j++) {
        double a = j > lo ? j : lo, b = j + 1 < hi ? j + 1 : hi;
        out[n++] = (b - a) / r;
    }
    *count = n;
    return first;
}

static int axis_make(axis_filter *a, int n_src, int n_dst, int max_taps) {
    memset(a, 0, sizeof *a);
    /* An area window covers at most ceil(n/m) + 1 samples; wider than allowed is refused before allocating. */
    if (n_dst < n_src && n_src / n_dst + 2 > max_taps + 1) return -1;
    double tmp[MAX_DOWN + 2];
    int taps = 1;
    for (int i = 0; i < n_dst; i++) {
        int count;
        axis_weights(n_src, n_dst, i, tmp, &count);
        if (count > taps) taps = count;
    }
    if (taps > max_taps) return -1;
    a->taps = taps;
    a->pos = malloc(sizeof(int32_t) * (size_t)n_dst);
    a->w = calloc((size_t)n_dst * (size_t)taps, sizeof(uint16_t));
    if (!a->pos || !a->w) { axis_free(a); return -1; }
    for (int i = 0; i < n_dst; i++) {
        int count;
        int first = axis_weights(n_src, n_dst, i, tmp, &count);
        /* The window of `taps` samples stays inside the source: one that would pass its end starts
         * earlier, its weights moved along with it. */
        int start = first + taps > n_src ? n_src - taps : first;
        int32_t q[MAX_DOWN + 2] = {0};
        int sum = 0, largest = 0;
        for (int k = 0; k < count; k++) {
            int slot = first - start + k;
            q[slot] = (int32_t)lrint(tmp[k] * (1 << Q));
            sum += q[slot];
            if (q[slot] > q[largest]) largest = slot;
        }
        q[largest] += (1 << Q) - sum;
        for (int k = 0; k < taps; k++) {
            a->w[(size_t)i * (size_t)taps + (size_t)k] = (uint16_t)(q[k] > 65535 ? 65535 : (q[k] < 0 ? 0 : q[k]));
        }
        a->pos[i] = start;
    }
    return 0;
}

/* Each group's windows, shuffles and weights; -1 when a group's samples do not fit their windows. */
static int groups_make(plane_fit *p) {
    const axis_filter *h = &p->h;
    if (p->src_w < WINDOW) return -1;
    int count = (p->dst_w + GROUP - 1) / GROUP;
    p->groups = calloc((size_t)count, sizeof(row_group));
    if (!p->groups) return -1;
    for (int g = 0; g < count; g++) {
        row_group *group = &p->groups[g];
        for (int half = 0; half < 2; half++) {
            int first = g * GROUP + half * HALF;
            int base = first < p->dst_w ? h->pos[first] : 0;
            if (base + WINDOW > p->src_w) base = p->src_w - WINDOW;
            group->base[half] = base;
            for (int j = 0; j < HALF; j++) {
                int i = first + j, lane = half * HALF + j;
                for (int k = 0; k < MAX_ACROSS; k++) {
                    int offset = 0;
                    uint16_t weight = 0;
                    if (i < p->dst_w && k < h->taps) {
                        offset = h->pos[i] + k - base;
                        weight = h->w[(size_t)i * (size_t)h->taps + (size_t)k];
                        if (offset < 0 || offset >= WINDOW) return -1;
                    }
                    /* Little-endian 16-bit lane: low byte zero (0x80 clears it), high byte the sample. */
                    if (k == 0) {
                        group->shuffle[2 * lane] = 0x80;
                        group->shuffle[2 * lane + 1] = (uint8_t)offset;
                    }
                    group->w[k][lane] = weight;
                }
            }
        }
    }
    return 0;
}

static void plane_free(plane_fit *p) {
    axis_free(&p->h);
    axis_free(&p->v);
    free(p->groups);
    free(p->ring);
    free(p->ring_row);
}

static int plane_make(plane_fit *p, int src_w, int src_h, int dst_w, int dst_h) {
    memset(p, 0, sizeof *p);
    p->src_w = src_w; p->src_h = src_h; p->dst_w = dst_w; p->dst_h = dst_h;
    /* Rows are written a whole group at a time: room for one past the end. */
    p->ring_stride = (dst_w + GROUP + 15) / 16 * 16;
    if (axis_make(&p->h, src_w, dst_w, MAX_ACROSS) != 0 || axis_make(&p->v, src_h, dst_h, MAX_DOWN) != 0
        || groups_make(p) != 0) {
        plane_free(p);
        return -1;
    }
    p->ring = calloc((size_t)p->v.taps * (size_t)p->ring_stride, sizeof(uint16_t));
    p->ring_row = malloc(sizeof(int32_t) * (size_t)p->v.taps);
    if (!p->ring || !p->ring_row) { plane_free(p); return -1; }
    return 0;
}

smk_fit *smk_fit_create(int src_w, int src_h, int dst_w, int dst_h) {
    if (src_w < 1 || src_h < 1 || dst_w < 2 || dst_h < 2 || (dst_w & 1) || (dst_h & 1)) return NULL;
    if (src_w > 16384 || src_h > 16384 || dst_w > 16384 || dst_h > 16384) return NULL;
    smk_fit *fit = calloc(1, sizeof *fit);
    if (!fit) return NULL;
    int made = 0;
    while (made < 3) {
        int chroma = made > 0;
        if (plane_make(&fit->plane[made], chroma ? (src_w + 1) / 2 : src_w, chroma ? (src_h + 1) / 2 : src_h,
                       dst_w >> chroma, dst_h >> chroma) != 0) break;
        made++;
    }
    fit->term = malloc(sizeof(int16_t) * (size_t)dst_w);
    if (made < 3 || !fit->term) {
        for (int p = 0; p < made; p++) plane_free(&fit->plane[p]);
        free(fit->term);
        free(fit);
        return NULL;
    }
    return fit;
}

void smk_fit_free(smk_fit *fit) {
    if (!fit) return;
    for (int p = 0; p < 3; p++) plane_free(&fit->plane[p]);
    free(fit->term);
    free(fit);
}

/* ---- plain C rows: the reference the AVX2 rows are tested against, and the rows on other CPUs ---- */

static inline uint16_t mulhu(uint16_t a, uint16_t b) { return (uint16_t)(((uint32_t)a * b) >> 16); }

static void across_portable(const uint8_t *src, const plane_fit *p, uint16_t *out) {
    const axis_filter *h = &p->h;
    for (int i = 0; i < p->dst_w; i++) {
        const uint16_t *w = h->w + (size_t)i * (size_t)h->taps;
        const uint8_t *s = src + h->pos[i];
        uint16_t acc = 0;
        for (int k = 0; k < h->taps; k++) acc = (uint16_t)(acc + mulhu((uint16_t)(s[k] << 8), w[k]));
        out[i] = acc;
    }
}

/* Q8 to a byte, rounded (what the vector rows do with a saturating add and a shift). */
static inline uint8_t q8_byte(uint16_t acc) {
    uint32_t rounded = (uint32_t)acc + 128;
    if (rounded > 65535) rounded = 65535;
    rounded >>= 8;
    return (uint8_t)(rounded > 255 ? 255 : rounded);
}

static void down_portable(const uint16_t *const *rows, const uint16_t *w, int taps, int from, int width, uint8_t *out) {
    for (int x = from; x < width; x++) {
        uint16_t acc = 0;
        for (int k = 0; k < taps; k++) acc = (uint16_t)(acc + mulhu(rows[k][x], w[k]));
        out[x] = q8_byte(acc);
    }
}

/* ---- AVX2 rows ---- */

#if defined(__x86_64__)
/* One group's 16 samples, with the tap count a constant so the taps unroll. */
__attribute__((target("avx2"), always_inline))
static inline __m256i across_group(const uint8_t *src, const row_group *group, const int taps) {
    __m256i window = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(src + group->base[0]))),
        _mm_loadu_si128((const __m128i *)(src + group->base[1])), 1);
    /* Tap k's shuffle is tap 0's with every offset k further (the cleared bytes, 0x80 + k, stay cleared). */
    const __m256i first = _mm256_loadu_si256((const __m256i *)group->shuffle);
    __m256i acc = _mm256_mulhi_epu16(_mm256_shuffle_epi8(window, first), _mm256_loadu_si256((const __m256i *)group->w[0]));
    for (int k = 1; k < taps; k++) {
        __m256i samples = _mm256_shuffle_epi8(window, _mm256_add_epi8(first, _mm256_set1_epi8((char)k)));
        acc = _mm256_add_epi16(acc, _mm256_mulhi_epu16(samples, _mm256_loadu_si256((const __m256i *)group->w[k])));
    }
    return acc;
}

#define ACROSS_TAPS(n)                                                                            \
    __attribute__((target("avx2")))                                                               \
    static void across_avx2_##n(const uint8_t *src, const plane_fit *p, uint16_t *out) {          \
        const int groups = (p->dst_w + GROUP - 1) / GROUP;                                        \
        for (int g = 0; g < groups; g++)                                                          \
            _mm256_storeu_si256((__m256i *)(out + g * GROUP), across_group(src, &p->groups[g], n)); \
    }
ACROSS_TAPS(1)
ACROSS_TAPS(2)
ACROSS_TAPS(3)
ACROSS_TAPS(4)

static void across_avx2(const uint8_t *src, const plane_fit *p, uint16_t *out) {
    switch (p->h.taps) {
    case 1: across_avx2_1(src, p, out); break;
    case 2: across_avx2_2(src, p, out); break;
    case 3: across_avx2_3(src, p, out); break;
    default: across_avx2_4(src, p, out); break;
    }
}

__attribute__((target("avx2")))
static void down_avx2(const uint16_t *const *rows, const uint16_t *w, int taps, int width, uint8_t *out) {
    const __m256i half = _mm256_set1_epi16(128);
    int x = 0;
    for (; x + 32 <= width; x += 32) {
        __m256i a = _mm256_setzero_si256(), b = a;
        for (int k = 0; k < taps; k++) {
            __m256i weight = _mm256_set1_epi16((short)w[k]);
            a = _mm256_add_epi16(a, _mm256_mulhi_epu16(_mm256_loadu_si256((const __m256i *)(rows[k] + x)), weight));
            b = _mm256_add_epi16(b, _mm256_mulhi_epu16(_mm256_loadu_si256((const __m256i *)(rows[k] + x + 16)), weight));
        }
        a = _mm256_srli_epi16(_mm256_adds_epu16(a, half), 8);
        b = _mm256_srli_epi16(_mm256_adds_epu16(b, half), 8);
        /* Packing works per 128-bit lane: the quarters are put back in order. */
        _mm256_storeu_si256((__m256i *)(out + x), _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0xD8));
    }
    for (; x + 16 <= width; x += 16) {
        __m256i a = _mm256_setzero_si256();
        for (int k = 0; k < taps; k++) {
            a = _mm256_add_epi16(a, _mm256_mulhi_epu16(_mm256_loadu_si256((const __m256i *)(rows[k] + x)), _mm256_set1_epi16((short)w[k])));
        }
        a = _mm256_srli_epi16(_mm256_adds_epu16(a, half), 8);
        __m256i bytes = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, a), 0xD8);
        _mm_storeu_si128((__m128i *)(out + x), _mm256_castsi256_si128(bytes));
    }
    down_portable(rows, w, taps, x, width, out);
}

static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

int smk_fit_uses_avx2(void) {
#if defined(__x86_64__)
    return has_avx2();
#else
    return 0;
#endif
}

/* Output row i of plane p: the source rows it needs resampled across (each once per picture, kept in
 * the ring while later output rows need it), then combined down into `out`. */
static void plane_row(plane_fit *p, const uint8_t *src, int src_stride, int i, uint8_t *out, int avx2) {
    const axis_filter *v = &p->v;
    const uint16_t *rows[MAX_DOWN];
    for (int k = 0; k < v->taps; k++) {
        int j = v->pos[i] + k, slot = j % v->taps;
        uint16_t *row = p->ring + (size_t)slot * (size_t)p->ring_stride;
        if (p->ring_row[slot] != j) {
            const uint8_t *line = src + (size_t)j * (size_t)src_stride;
#if defined(__x86_64__)
            if (avx2) across_avx2(line, p, row); else
#endif
            across_portable(line, p, row);
            p->ring_row[slot] = j;
        }
        rows[k] = row;
    }
    const uint16_t *w = v->w + (size_t)i * (size_t)v->taps;
#if defined(__x86_64__)
    if (avx2) { down_avx2(rows, w, v->taps, p->dst_w, out); return; }
#endif
    (void)avx2;
    down_portable(rows, w, v->taps, 0, p->dst_w, out);
}

void smk_fit_picture(smk_fit *fit, const uint8_t *const src[3], const int src_stride[3],
                     uint8_t *const dst[3], const int dst_stride[3], const smk_colour_matrix *m, int portable) {
    int avx2 = !portable && smk_fit_uses_avx2();
    plane_fit *luma = &fit->plane[0], *cb = &fit->plane[1], *cr = &fit->plane[2];
    for (int p = 0; p < 3; p++) {
        for (int k = 0; k < fit->plane[p].v.taps; k++) fit->plane[p].ring_row[k] = -1;
    }
    /* A chroma row, converted, then the two luma rows that share it, converted with its share of luma. */
    for (int cy = 0; cy < cb->dst_h; cy++) {
        uint8_t *u = dst[1] + (size_t)cy * (size_t)dst_stride[1];
        uint8_t *v = dst[2] + (size_t)cy * (size_t)dst_stride[2];
        plane_row(cb, src[1], src_stride[1], cy, u, avx2);
        plane_row(cr, src[2], src_stride[2], cy, v, avx2);
        if (m) smk_convert_chroma_row(u, v, u, v, fit->term, cb->dst_w, m);
        for (int r = 0; r < 2; r++) {
            int y = 2 * cy + r;
            uint8_t *out = dst[0] + (size_t)y * (size_t)dst_stride[0];
            plane_row(luma, src[0], src_stride[0], y, out, avx2);
            if (m) smk_convert_luma_row(out, out, fit->term, luma->dst_w, m);
        }
    }
}
