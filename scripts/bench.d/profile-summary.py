#!/usr/bin/env python3
"""Sorts the samples of a `perf record --call-graph dwarf` profile of `stagemix compose` into the job's
stages and prints each stage's share of all CPU samples.

    perf script -i perf.data -F comm,tid,period,ip,sym,dso | profile-summary.py

A sample belongs to the first stage rule (in the order below) that matches any frame of its stack,
so inclusive cost is counted once. Debian's FFmpeg and x264 ship without symbols and their assembly
has no unwind tables, so a sample whose leaf is in libx264 counts as encoding wherever it was, and
libavcodec samples whose stack stops before reaching StageMix's code are listed on their own,
by thread: stagemix-decode decodes video and audio, stagemix-encode runs AAC and the muxer, and x264
runs threads of its own (named after the thread that started them).
"""
import collections
import sys

# (stage, substrings of a frame's symbol or library); Swift symbols are matched mangled, by type name.
STAGES = [
    ("x264 encode (libx264, all threads)", ["libx264"]),
    ("VP8 decode + WebM demux (LayerReader)", ["11LayerReaderC", "12VideoDecoderC", "16TrackVideoSourceC"]),
    ("AAC encode (AudioEncoder)", ["12AudioEncoderC"]),
    ("Opus decode (libopus)", ["libopus", "11OpusDecoderC"]),
    ("audio read + mix + limiter (Swift)", ["16AudioTrackReaderC", "8AudioMixC", "10AudioMixerC", "AudioMix"]),
    ("tile copy (Scaler.copyPlanes)", ["10copyPlanes"]),
    ("swscale (Scaler.scale)", ["libswscale", "6ScalerC"]),
    ("fills (CanvasFrame.fill)", ["11CanvasFrameC4fill"]),
    ("canvas copy-on-write (CanvasFrame.makeWritable)", ["11CanvasFrameC13makeWritable"]),
    ("video encoder call (VideoEncoder.send, excl. x264)", ["12VideoEncoderC"]),
    ("HLS mux (HLSMuxer / libavformat)", ["9HLSMuxerC", "5MuxerC", "libavformat"]),
    ("rest of CompositionPipeline.run (Swift loop, progress)", ["19CompositionPipelineC"]),
    ("process start, plan, capture read", ["ld-linux", "_dl_start", "CaptureReader", "CompositionPlan"]),
]


def samples(stream):
    tid, period, frames = None, 0, []
    for line in stream:
        line = line.rstrip("\n")
        if not line.strip():
            if tid is not None:
                yield tid, period, frames
            tid, period, frames = None, 0, []
        elif not line.startswith("\t"):  # a header: "COMM TID PERIOD", maybe right-aligned
            parts = line.split()
            tid, period = parts[-2] + " " + parts[0], int(parts[-1])
        else:
            frames.append(line.strip())
    if tid is not None:
        yield tid, period, frames


def main():
    totals = collections.Counter()
    all_samples = list(samples(sys.stdin))
    for tid, period, frames in all_samples:
        stage = next((name for name, keys in STAGES if any(k in f for f in frames for k in keys)), None)
        if stage is None:
            leaf = frames[0] if frames else ""
            lib = leaf[leaf.rfind("(") + 1:-1].rsplit("/", 1)[-1] if "(" in leaf else "?"
            thread = tid.split(" ", 1)[1]
            where = thread if thread.startswith("stagemix-") else "other threads"
            stage = f"unattributed: {lib.split('.so')[0]} on {where}"
        totals[stage] += period
    grand = sum(totals.values())
    for stage, period in totals.most_common():
        print(f"{100 * period / grand:6.2f}%  {stage}")


if __name__ == "__main__":
    main()
