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
#include <libavutil/avstring.h>
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

/* What an output context's files met. libavformat's HLS muxer ignores a segment whose write or close
 * failed (a full disk), so the muxer's context and the contexts it makes (which copy its opaque and io
 * callbacks) open and close every file through these, and the first failure is kept, with the file's
 * path, for the muxer to throw at its next packet. Starts with a CFFMediaWatch: the log callback
 * counts errors through any format context's opaque. */
#define CFF_OUTPUT_OPEN_FILES 8
#define CFF_OUTPUT_PATH 4096
typedef struct CFFOutputWatch {
    CFFMediaWatch media;
    /* libavformat's own callbacks, those these wrap */
    int (*io_open)(struct AVFormatContext *, AVIOContext **, const char *, int, AVDictionary **);
    int (*io_close2)(struct AVFormatContext *, AVIOContext *);
    int error;                                    /* the first AVERROR a write, open or close met; 0: none */
    char path[CFF_OUTPUT_PATH];                   /* the file it was writing */
    AVIOContext *open[CFF_OUTPUT_OPEN_FILES];     /* files open for writing now, and their paths */
    char openPath[CFF_OUTPUT_OPEN_FILES][CFF_OUTPUT_PATH];
} CFFOutputWatch;

static inline void cff_output_failed(CFFOutputWatch *w, int error, const char *path) {
    if (!w || w->error < 0) return;
    w->error = error;
    av_strlcpy(w->path, path ? path : "", CFF_OUTPUT_PATH);
}

static int cff_output_open(struct AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options) {
    CFFOutputWatch *w = s->opaque;
    /* A nested context copies its parent's opaque with the callbacks; without one, what libavformat does. */
    int ret = w ? w->io_open(s, pb, url, flags, options) : avio_open2(pb, url, flags, &s->interrupt_callback, options);
    if (!w || !(flags & AVIO_FLAG_WRITE)) return ret;
    if (ret < 0) { cff_output_failed(w, ret, url); return ret; }
    for (int i = 0; i < CFF_OUTPUT_OPEN_FILES; i++) {
        if (!w->open[i]) { w->open[i] = *pb; av_strlcpy(w->openPath[i], url, CFF_OUTPUT_PATH); break; }
    }
    return ret;
}

static int cff_output_close(struct AVFormatContext *s, AVIOContext *pb) {
    CFFOutputWatch *w = s->opaque;
    int slot = -1, written = 0;
    if (w) for (int i = 0; i < CFF_OUTPUT_OPEN_FILES; i++) if (w->open[i] == pb) { slot = i; break; }
    if (pb && pb->write_flag) { avio_flush(pb); written = pb->error; }
    int ret = w ? w->io_close2(s, pb) : avio_close(pb);
    if (written < 0) ret = written;
    if (w && ret < 0) cff_output_failed(w, ret, slot >= 0 ? w->openPath[slot] : "");
    if (slot >= 0) w->open[slot] = NULL;
    return ret;
}

/* Before the header: every file the context (and its nested contexts) writes goes through the watch. */
static inline void cff_output_watch(AVFormatContext *s, CFFOutputWatch *w) {
    w->io_open = s->io_open;
    w->io_close2 = s->io_close2;
    s->opaque = w;
    s->io_open = cff_output_open;
    s->io_close2 = cff_output_close;
}
#endif
