#ifndef COPUS_SHIM_H
#define COPUS_SHIM_H
#include <opus/opus.h>

/* opus_encoder_ctl/opus_decoder_ctl are variadic; Swift cannot call them. */
static inline int copus_encoder_set_bitrate(OpusEncoder *e, opus_int32 bps) {
    return opus_encoder_ctl(e, OPUS_SET_BITRATE(bps));
}
static inline int copus_encoder_set_complexity(OpusEncoder *e, opus_int32 c) {
    return opus_encoder_ctl(e, OPUS_SET_COMPLEXITY(c));
}
static inline int copus_encoder_get_lookahead(OpusEncoder *e, opus_int32 *samples) {
    return opus_encoder_ctl(e, OPUS_GET_LOOKAHEAD(samples));
}
static inline int copus_decoder_reset(OpusDecoder *d) {
    return opus_decoder_ctl(d, OPUS_RESET_STATE);
}
#endif
