#ifndef CFFMPEG_SHIM_H
#define CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libswresample/swresample.h>
#include <libavutil/avutil.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libavutil/channel_layout.h>
#include <libavutil/error.h>
#include <libavutil/pixdesc.h>
#include <libavutil/display.h>

/* Swift cannot import FFERRTAG/AVERROR function-like macros. */
static inline int cff_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int cff_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
static inline int cff_AVERROR(int e) { return AVERROR(e); }
static inline int cff_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int cff_AVERROR_ENCODER_NOT_FOUND(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int cff_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }

/* Casted and compound-literal macros Swift does not import. */
static inline int64_t cff_AV_NOPTS_VALUE(void) { return AV_NOPTS_VALUE; }
static inline AVRational cff_AV_TIME_BASE_Q(void) { return AV_TIME_BASE_Q; }
static inline int cff_AV_OPT_SEARCH_CHILDREN(void) { return AV_OPT_SEARCH_CHILDREN; }
static inline int cff_AV_CODEC_FLAG_GLOBAL_HEADER(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }

/* av_err2str is a macro around a compound literal; write into a caller buffer instead. */
static inline const char *cff_av_err2str(int errnum, char *buf, size_t size) {
    return av_make_error_string(buf, size, errnum);
}

/* AVFrame.data/linesize are fixed C arrays that Swift imports as tuples. */
static inline uint8_t *cff_frame_data(const AVFrame *f, int plane) { return f->data[plane]; }
static inline int cff_frame_linesize(const AVFrame *f, int plane) { return f->linesize[plane]; }
#endif
