#include "stagemix_kernels.h"

/* Each output element depends only on the inputs at its own index, so converting in place is safe
 * for vectors: `assume_safety` tells the vectoriser so instead of falling back on overlap. */

static inline uint8_t clamp_byte(int32_t v) { return (uint8_t)(v < 0 ? 0 : (v > 255 ? 255 : v)); }

#define CHROMA_ROW_BODY                                                                          \
    const int32_t shift = m->shift, term_shift = m->shift - 6;                                    \
    _Pragma("clang loop vectorize(assume_safety)")                                                \
    for (int i = 0; i < count; i++) {                                                              \
        int32_t cu = (int32_t)u[i] - 128, cv = (int32_t)v[i] - 128;                               \
        int16_t share = (int16_t)((m->yU * cu + m->yV * cv + m->yK) >> term_shift);                \
        term[2 * i] = share;                                                                       \
        term[2 * i + 1] = share;                                                                   \
        u_out[i] = clamp_byte((m->uU * cu + m->uV * cv + m->uK) >> shift);                         \
        v_out[i] = clamp_byte((m->vU * cu + m->vV * cv + m->vK) >> shift);                         \
    }

#define LUMA_ROW_BODY                                                                            \
    const int16_t gain = m->yY6;                                                                  \
    _Pragma("clang loop vectorize(assume_safety)")                                                \
    for (int i = 0; i < count; i++) {                                                              \
        int16_t out = (int16_t)((int16_t)(gain * (int16_t)y[i] + term[i]) >> 6);                  \
        y_out[i] = (uint8_t)(out < 0 ? 0 : (out > 255 ? 255 : out));                               \
    }

static void chroma_row_sse2(const uint8_t *u, const uint8_t *v, uint8_t *u_out, uint8_t *v_out,
                            int16_t *term, int count, const smk_colour_matrix *m) { CHROMA_ROW_BODY }
static void luma_row_sse2(const uint8_t *y, uint8_t *y_out, const int16_t *term, int count,
                          const smk_colour_matrix *m) { LUMA_ROW_BODY }

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void chroma_row_avx2(const uint8_t *u, const uint8_t *v, uint8_t *u_out, uint8_t *v_out,
                            int16_t *term, int count, const smk_colour_matrix *m) { CHROMA_ROW_BODY }
__attribute__((target("avx2")))
static void luma_row_avx2(const uint8_t *y, uint8_t *y_out, const int16_t *term, int count,
                          const smk_colour_matrix *m) { LUMA_ROW_BODY }

/* A read of what the C runtime found at start-up: cheap enough for every row. */
static int has_avx2(void) { return __builtin_cpu_supports("avx2"); }
#endif

void smk_convert_chroma_row(const uint8_t *u, const uint8_t *v, uint8_t *u_out, uint8_t *v_out,
                            int16_t *term, int count, const smk_colour_matrix *m) {
#if defined(__x86_64__)
    if (has_avx2()) { chroma_row_avx2(u, v, u_out, v_out, term, count, m); return; }
#endif
    chroma_row_sse2(u, v, u_out, v_out, term, count, m);
}

void smk_convert_luma_row(const uint8_t *y, uint8_t *y_out, const int16_t *term, int count,
                          const smk_colour_matrix *m) {
#if defined(__x86_64__)
    if (has_avx2()) { luma_row_avx2(y, y_out, term, count, m); return; }
#endif
    luma_row_sse2(y, y_out, term, count, m);
}
