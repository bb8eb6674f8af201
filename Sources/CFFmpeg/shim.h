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
#include <libavutil/time.h>
#include <stdarg.h>

/* Swift cannot import FFERRTAG/AVERROR function-like macros. */
static inline int cff_AVERROR_EOF(void) { return AVERROR_EOF; }
static inline int cff_AVERROR_EAGAIN(void) { return AVERROR(EAGAIN); }
static inline int cff_AVERROR(int e) { return AVERROR(e); }
static inline int cff_AVERROR_DECODER_NOT_FOUND(void) { return AVERROR_DECODER_NOT_FOUND; }
static inline int cff_AVERROR_ENCODER_NOT_FOUND(void) { return AVERROR_ENCODER_NOT_FOUND; }
static inline int cff_AVERROR_INVALIDDATA(void) { return AVERROR_INVALIDDATA; }
static inline int cff_AVERROR_EINVAL(void) { return AVERROR(EINVAL); }

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

/* A demuxer's or decoder's watch: the deadline libavformat's interrupt callback checks, and a count of
 * the errors FFmpeg logged for the contexts that point at it (a dropped Ogg page, a concealed slice). */
typedef struct CFFMediaWatch {
    int64_t deadline;  /* av_gettime_relative() microseconds; INT64_MAX: none */
    int64_t errors;
} CFFMediaWatch;

static inline int cff_watch_expired(void *opaque) {
    const CFFMediaWatch *w = opaque;
    return av_gettime_relative() > w->deadline;
}

/* Installed on a format context before avformat_open_input, so every blocking read checks the deadline. */
static inline void cff_format_watch(AVFormatContext *s, CFFMediaWatch *w) {
    s->interrupt_callback.callback = cff_watch_expired;
    s->interrupt_callback.opaque = w;
    s->opaque = w;
}

/* Counts error-level messages of watched format and codec contexts (their opaque is a CFFMediaWatch),
 * then logs as FFmpeg would. Our own contexts leave opaque NULL unless they are watched. */
static void cff_watching_log(void *avcl, int level, const char *fmt, va_list vl) {
    if (avcl && level <= AV_LOG_ERROR) {
        const AVClass *cls = *(const AVClass **)avcl;
        CFFMediaWatch *w = NULL;
        if (cls == avformat_get_class()) w = ((AVFormatContext *)avcl)->opaque;
        else if (cls == avcodec_get_class()) w = ((AVCodecContext *)avcl)->opaque;
        if (w) __atomic_fetch_add(&w->errors, 1, __ATOMIC_RELAXED);
    }
    av_log_default_callback(avcl, level, fmt, vl);
}

static inline void cff_install_watching_log(void) { av_log_set_callback(cff_watching_log); }
static inline int64_t cff_watch_errors(const CFFMediaWatch *w) { return __atomic_load_n(&w->errors, __ATOMIC_RELAXED); }
static inline int cff_AVERROR_EXIT(void) { return AVERROR_EXIT; }
#endif
