#include "stagemix_kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* A picture fitted to a tile in one pass per output row: the source rows the output row needs are
 * combined vertically into a row of 16-bit values (Q7: the sample times 128), that row is resampled
 * horizontally straight into the tile's row of the canvas, and the canvas row is converted to the
 * canvas's colour space while it is still in the L1 cache. No intermediate picture exists.
 *
 * Filters, per axis, as swscale computes SWS_AREA's (centre-aligned samples, chroma sited as
 * swscale's default places it for 4:2:0, in the middle of its 2x2 block, so both planes use the
 * same mapping in their own sample counts): shrinking, each output sample is the average of the
 * source area it covers (a box of width n/m, the partly covered samples at its ends weighted by how
 * much of them it covers); growing, bilinear between the two nearest source samples, edges repeated.
 * Weights are Q14 and sum exactly to 1 << 14 per output sample. */

enum { Q = 14, Q_ROW = 7, LANES = 8 };

typedef struct {
    int taps;    /* non-zero weights at most, per output sample */
    int stride;  /* taps rounded up to LANES: the weights of sample i are w[i * stride ...] */
    int32_t *pos;
    int16_t *w;
} axis_filter;

typedef struct {
    int src_w, src_h, dst_w, dst_h;
    axis_filter h, v;
} plane_fit;

struct smk_fit {
    plane_fit plane[2]; /* luma, chroma */
    int16_t *row;       /* one vertically combined source row, padded for whole-vector reads */
    int16_t *term;      /* the chroma's share of luma, for the colour conversion */
};

static void axis_free(axis_filter *a) {
    free(a->pos);
    free(a->w);
}

/* Weights of output sample i as doubles into `out` (length n_src), returns the first index. */
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

static int axis_make(axis_filter *a, int n_src, int n_dst) {
    memset(a, 0, sizeof *a);
    double *tmp = malloc(sizeof(double) * (size_t)(n_src + 2));
    if (!tmp) return -1;
    int taps = 1;
    for (int i = 0; i < n_dst; i++) {
        int count;
        axis_weights(n_src, n_dst, i, tmp, &count);
        if (count > taps) taps = count;
    }
    a->taps = taps;
    a->stride = (taps + LANES - 1) / LANES * LANES;
    a->pos = malloc(sizeof(int32_t) * (size_t)n_dst);
    a->w = calloc((size_t)n_dst * (size_t)a->stride, sizeof(int16_t));
    if (!a->pos || !a->w) { free(tmp); axis_free(a); return -1; }
    for (int i = 0; i < n_dst; i++) {
        int count;
        int first = axis_weights(n_src, n_dst, i, tmp, &count);
        /* The window of `taps` samples stays inside the source: one that would pass its end starts
         * earlier, its weights moved along with it. */
        int start = first + taps > n_src ? n_src - taps : first;
        int16_t *w = a->w + (size_t)i * (size_t)a->stride;
        int sum = 0, largest = 0;
        for (int k = 0; k < count; k++) {
            int slot = first - start + k;
            int q = (int)lrint(tmp[k] * (1 << Q));
            w[slot] = (int16_t)q;
            sum += q;
            if (w[slot] > w[largest]) largest = slot;
        }
        w[largest] = (int16_t)(w[largest] + ((1 << Q) - sum));
        a->pos[i] = start;
    }
    free(tmp);
    return 0;
}

static int plane_make(plane_fit *p, int src_w, int src_h, int dst_w, int dst_h) {
    p->src_w = src_w; p->src_h = src_h; p->dst_w = dst_w; p->dst_h = dst_h;
    if (axis_make(&p->h, src_w, dst_w) != 0) return -1;
    if (axis_make(&p->v, src_h, dst_h) != 0) { axis_free(&p->h); return -1; }
    return 0;
}

smk_fit *smk_fit_create(int src_w, int src_h, int dst_w, int dst_h) {
    if (src_w < 1 || src_h < 1 || dst_w < 2 || dst_h < 2 || (dst_w & 1) || (dst_h & 1)) return NULL;
    if (src_w > 16384 || src_h > 16384 || dst_w > 16384 || dst_h > 16384) return NULL;
    smk_fit *fit = calloc(1, sizeof *fit);
    if (!fit) return NULL;
    if (plane_make(&fit->plane[0], src_w, src_h, dst_w, dst_h) != 0) { free(fit); return NULL; }
    if (plane_make(&fit->plane[1], (src_w + 1) / 2, (src_h + 1) / 2, dst_w / 2, dst_h / 2) != 0) {
        axis_free(&fit->plane[0].h); axis_free(&fit->plane[0].v); free(fit); return NULL;
    }
    /* Whole-vector reads of a window may pass the row's end by up to a stride's worth of samples. */
    int pad = fit->plane[0].h.stride > fit->plane[1].h.stride ? fit->plane[0].h.stride : fit->plane[1].h.stride;
    fit->row = calloc((size_t)src_w + (size_t)pad + 32, sizeof(int16_t));
    fit->term = malloc(sizeof(int16_t) * (size_t)dst_w);
    if (!fit->row || !fit->term) { smk_fit_free(fit); return NULL; }
    return fit;
}

void smk_fit_free(smk_fit *fit) {
    if (!fit) return;
    for (int p = 0; p < 2; p++) { axis_free(&fit->plane[p].h); axis_free(&fit->plane[p].v); }
    free(fit->row);
    free(fit->term);
    free(fit);
}

int smk_fit_taps(const smk_fit *fit, int chroma, int vertical) {
    const plane_fit *p = &fit->plane[chroma ? 1 : 0];
    return vertical ? p->v.taps : p->h.taps;
}

/* ---- portable rows ---- */

static void vertical_portable(const uint8_t *src, int stride, const axis_filter *v, int i, int width, int16_t *row) {
    const uint8_t *base = src + (size_t)v->pos[i] * (size_t)stride;
    const int16_t *w = v->w + (size_t)i * (size_t)v->stride;
    for (int x = 0; x < width; x++) {
        int32_t acc = 0;
        for (int k = 0; k < v->taps; k++) acc += (int32_t)w[k] * base[(size_t)k * (size_t)stride + (size_t)x];
        row[x] = (int16_t)((acc + (1 << (Q_ROW - 1))) >> Q_ROW);
    }
}

static void horizontal_portable(const int16_t *row, const axis_filter *h, int from, int width, uint8_t *out) {
    for (int i = from; i < width; i++) {
        const int16_t *w = h->w + (size_t)i * (size_t)h->stride;
        const int16_t *s = row + h->pos[i];
        int32_t acc = 1 << (Q + Q_ROW - 1);
        for (int k = 0; k < h->taps; k++) acc += (int32_t)w[k] * s[k];
        acc >>= Q + Q_ROW;
        out[i] = (uint8_t)(acc < 0 ? 0 : (acc > 255 ? 255 : acc));
    }
}

/* ---- AVX2 rows ---- */

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void vertical_avx2(const uint8_t *src, int stride, const axis_filter *v, int i, int width, int16_t *row) {
    const uint8_t *base = src + (size_t)v->pos[i] * (size_t)stride;
    const int16_t *w = v->w + (size_t)i * (size_t)v->stride;
    const __m256i round = _mm256_set1_epi32(1 << (Q_ROW - 1));
    int x = 0;
    for (; x + 16 <= width; x += 16) {
        __m256i lo = round, hi = round;
        /* Two source rows at a time: their bytes interleaved as 16-bit pairs, multiplied by the pair of
         * weights and summed in one instruction. An odd last row pairs with itself at weight 0. */
        for (int k = 0; k < v->taps; k += 2) {
            int k2 = k + 1 < v->taps ? k + 1 : k;
            int16_t w2 = k + 1 < v->taps ? w[k + 1] : 0;
            __m128i a = _mm_loadu_si128((const __m128i *)(base + (size_t)k * (size_t)stride + (size_t)x));
            __m128i b = _mm_loadu_si128((const __m128i *)(base + (size_t)k2 * (size_t)stride + (size_t)x));
            __m256i pair = _mm256_set1_epi32((int32_t)(((uint32_t)(uint16_t)w2 << 16) | (uint16_t)w[k]));
            lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_unpacklo_epi8(a, b)), pair));
            hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_cvtepu8_epi16(_mm_unpackhi_epi8(a, b)), pair));
        }
        /* lo holds samples x..x+7, hi x+8..x+15; packing works per 128-bit lane, so the quarters are put back in order. */
        __m256i packed = _mm256_packs_epi32(_mm256_srai_epi32(lo, Q_ROW), _mm256_srai_epi32(hi, Q_ROW));
        _mm256_storeu_si256((__m256i *)(row + x), _mm256_permute4x64_epi64(packed, 0xD8));
    }
    for (; x < width; x++) {
        int32_t acc = 0;
        for (int k = 0; k < v->taps; k++) acc += (int32_t)w[k] * base[(size_t)k * (size_t)stride + (size_t)x];
        row[x] = (int16_t)((acc + (1 << (Q_ROW - 1))) >> Q_ROW);
    }
}

/* Two output samples' windows (8 values each, from their own positions) times their weights: 8 sums of pairs. */
__attribute__((target("avx2")))
static inline __m256i window_pair(const int16_t *row, const axis_filter *h, int i, int chunk) {
    const int16_t *w = h->w + (size_t)i * (size_t)h->stride + chunk;
    __m256i s = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(row + h->pos[i] + chunk))),
        _mm_loadu_si128((const __m128i *)(row + h->pos[i + 1] + chunk)), 1);
    __m256i ws = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)w)),
        _mm_loadu_si128((const __m128i *)(w + h->stride)), 1);
    return _mm256_madd_epi16(s, ws);
}

__attribute__((target("avx2")))
static void horizontal_avx2(const int16_t *row, const axis_filter *h, int width, uint8_t *out) {
    const __m256i round = _mm256_set1_epi32(1 << (Q + Q_ROW - 1));
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    int i = 0;
    for (; i + 8 <= width; i += 8) {
        __m256i p0 = _mm256_setzero_si256(), p1 = p0, p2 = p0, p3 = p0;
        for (int c = 0; c < h->stride; c += LANES) {
            p0 = _mm256_add_epi32(p0, window_pair(row, h, i, c));
            p1 = _mm256_add_epi32(p1, window_pair(row, h, i + 2, c));
            p2 = _mm256_add_epi32(p2, window_pair(row, h, i + 4, c));
            p3 = _mm256_add_epi32(p3, window_pair(row, h, i + 6, c));
        }
        /* Each 128-bit lane of p0 is one sample's four partial sums (i, then i+1); two rounds of pairwise
         * adds leave samples i, i+2, i+4, i+6 in the low lane and i+1, i+3, i+5, i+7 in the high one. */
        __m256i s = _mm256_hadd_epi32(_mm256_hadd_epi32(p0, p1), _mm256_hadd_epi32(p2, p3));
        s = _mm256_srai_epi32(_mm256_add_epi32(s, round), Q + Q_ROW);
        s = _mm256_permutevar8x32_epi32(s, order);
        __m128i words = _mm_packs_epi32(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1));
        _mm_storel_epi64((__m128i *)(out + i), _mm_packus_epi16(words, words));
    }
    horizontal_portable(row, h, i, width, out);
}

static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

static void plane_row(const smk_fit *fit, const plane_fit *p, const uint8_t *src, int src_stride, int i, uint8_t *out, int avx2) {
#if defined(__x86_64__)
    if (avx2) {
        vertical_avx2(src, src_stride, &p->v, i, p->src_w, fit->row);
        horizontal_avx2(fit->row, &p->h, p->dst_w, out);
        return;
    }
#endif
    (void)avx2;
    vertical_portable(src, src_stride, &p->v, i, p->src_w, fit->row);
    horizontal_portable(fit->row, &p->h, 0, p->dst_w, out);
}

int smk_fit_uses_avx2(void) {
#if defined(__x86_64__)
    return has_avx2();
#else
    return 0;
#endif
}

void smk_fit_picture(const smk_fit *fit, const uint8_t *const src[3], const int src_stride[3],
                     uint8_t *const dst[3], const int dst_stride[3], const smk_colour_matrix *m, int portable) {
    int avx2 = !portable && smk_fit_uses_avx2();
    const plane_fit *luma = &fit->plane[0], *chroma = &fit->plane[1];
    for (int cy = 0; cy < chroma->dst_h; cy++) {
        uint8_t *u = dst[1] + (size_t)cy * (size_t)dst_stride[1];
        uint8_t *v = dst[2] + (size_t)cy * (size_t)dst_stride[2];
        plane_row(fit, chroma, src[1], src_stride[1], cy, u, avx2);
        plane_row(fit, chroma, src[2], src_stride[2], cy, v, avx2);
        if (m) smk_convert_chroma_row(u, v, u, v, fit->term, chroma->dst_w, m);
        for (int r = 0; r < 2; r++) {
            int y = 2 * cy + r;
            uint8_t *out = dst[0] + (size_t)y * (size_t)dst_stride[0];
            plane_row(fit, luma, src[0], src_stride[0], y, out, avx2);
            if (m) smk_convert_luma_row(out, out, fit->term, luma->dst_w, m);
        }
    }
}
