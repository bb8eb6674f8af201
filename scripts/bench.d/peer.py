#!/usr/bin/env python3
"""The ffmpeg command lines StageMix is measured against, written from the plan as a user would.

    peer.py composite --capture DIR --plan PLAN.json --layers high|matching --out HLSDIR [--ladder L]
    peer.py encode    --size WxH --fps N --audio MIX.wav --out HLSDIR [--ladder L]

With --ladder 1920x1080@6000k,1280x720@3000k,640x360@800k the composite (or the raw frames) is
split once and scaled to each rendition, each with its own x264, written as one HLS master playlist
over one playlist per rendition and a shared audio rendition (var_stream_map), the way a user
writes an ABR ladder in one ffmpeg command.
    peer.py decode    --capture DIR --plan PLAN.json
    peer.py encoder-settings

Prints one argument per line (`ffmpeg` first); paths never hold newlines here.
"""
import argparse
import json
import os
import sys

# The job's encoder settings, identical for every peer (StageMix's defaults: GOP = one 4 s segment,
# no scene-cut keyframes, VBV of two seconds at the target rate).
ENCODE = ["-c:v", "libx264", "-preset", "veryfast", "-b:v", "3000k", "-maxrate", "3000k",
          "-bufsize", "6000k", "-g", "120", "-keyint_min", "120", "-sc_threshold", "0",
          "-pix_fmt", "yuv420p",
          "-c:a", "aac", "-b:a", "128k", "-ar", "48000", "-ac", "2"]


def hls(out):
    return ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
            "-hls_segment_filename", os.path.join(out, "segment_%05d.ts"), os.path.join(out, "index.m3u8")]


def layers_by_quality(session):
    """trackId -> {quality: layer} for every video track of the capture."""
    return {t["id"]: {l["quality"]: l for l in t.get("layers", [])}
            for t in session["tracks"] if t["kind"] == "video"}


def tile_filter(layer, rect, flags=None):
    """Fits a layer into a tile rect the way a careful user would.

    A layer at most 3 % larger than the tile in both dimensions (640x360 into 632x356) is
    centre-cropped: no resampling, nothing visible lost. Anything else is scaled to the tile.
    """
    w, h, tw, th = layer["width"], layer["height"], rect["width"], rect["height"]
    if tw <= w <= tw * 1.03 and th <= h <= th * 1.03:
        return f"crop={tw}:{th}:{((w - tw) // 2) & ~1}:{((h - th) // 2) & ~1}"
    return f"scale={tw}:{th}" + (f":flags={flags}" if flags else "")


def composite(args):
    with open(args.plan) as f:
        document = json.load(f)
    with open(os.path.join(args.capture, "session.json")) as f:
        session = json.load(f)
    plan = document["plan"]
    intervals = plan["intervals"]
    if len(intervals) != 1:
        sys.exit(f"peer.py: the bench scenarios have one plan interval; this plan has {len(intervals)}")
    interval = intervals[0]
    layers = layers_by_quality(session)
    canvas = plan["canvas"]
    background = interval["regions"][0]["color"] if interval["regions"] else plan["background"]
    background = "0x" + background.lstrip("#")

    cmd = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y"]
    chains, labels, positions = [], [], []
    tiles = sorted(interval["tiles"], key=lambda t: (t["rect"]["y"], t["rect"]["x"]))
    for i, tile in enumerate(tiles):
        quality = "high" if args.layers == "high" else tile["layer"]["quality"]
        layer = layers[tile["trackId"]][quality]
        cmd += ["-i", os.path.join(args.capture, layer["file"])]
        chains.append(f"[{i}:v]{tile_filter(layer, tile['rect'])}[t{i}]")
        labels.append(f"[t{i}]")
        positions.append(f"{tile['rect']['x']}_{tile['rect']['y']}")
    mics = [a for a in interval["audio"] if not a.get("muted")]
    for a in mics:
        cmd += ["-i", os.path.join(args.capture, a["file"])]
    n = len(tiles)
    # xstack's canvas is the tiles' bounding box from (0,0); pad takes it to the full canvas.
    video = (";".join(chains) + ";" + "".join(labels)
             + f"xstack=inputs={n}:layout={'|'.join(positions)}:fill={background},"
             + f"pad={canvas['width']}:{canvas['height']}:0:0:color={background}[v]")
    audio = "".join(f"[{n + j}:a]" for j in range(len(mics))) + f"amix=inputs={len(mics)}:duration=longest[a]"
    if args.ladder:
        video_out, maps = ladder_filter("[v0]", args.ladder, canvas)
        video = video.replace("[v]", "[v0]") + ";" + video_out
        return cmd + ["-filter_complex", video + ";" + audio] + maps + ["-map", "[a]", "-r", str(plan["fps"])] \
            + ladder_encode(args.ladder, args.out)
    cmd += ["-filter_complex", video + ";" + audio, "-map", "[v]", "-map", "[a]", "-r", str(plan["fps"])]
    return cmd + ENCODE + hls(args.out)


def parse_ladder(text):
    """[(width, height, kbps, fps or None)] of WxH@RATE[@FPS],... (RATE as 800k, 3M or bits per second)."""
    rungs = []
    for item in text.split(","):
        parts = item.strip().split("@")
        width, height = parts[0].split("x")
        rate = parts[1].lower()
        kbps = float(rate[:-1]) * {"k": 1, "m": 1000}[rate[-1]] if rate[-1] in "km" else float(rate) / 1000
        rungs.append((int(width), int(height), int(kbps), int(parts[2]) if len(parts) > 2 else None))
    return rungs


def ladder_filter(source, text, canvas):
    """split the composite once, scale each copy (bicubic, ffmpeg's default) but the canvas-sized one."""
    rungs = parse_ladder(text)
    parts = [f"{source}split={len(rungs)}" + "".join(f"[s{i}]" for i in range(len(rungs)))]
    maps = []
    for i, (w, h, _, fps) in enumerate(rungs):
        chain = [] if (w, h) == (canvas["width"], canvas["height"]) else [f"scale={w}:{h}"]
        chain += [f"fps={fps}"] if fps else []
        parts.append(f"[s{i}]{','.join(chain) or 'null'}[r{i}]")
        maps += ["-map", f"[r{i}]"]
    return ";".join(parts), maps


def ladder_encode(text, out):
    """ENCODE's settings for every rendition, each with its own rate, and HLS with a master playlist."""
    rungs = parse_ladder(text)
    # ENCODE's settings, with each rendition's own rate and VBV instead of the single one (and a GOP
    # of one segment at each rendition's own frame rate).
    rate_flags = {"-b:v", "-maxrate", "-bufsize", "-g", "-keyint_min"}
    args = [a for i, a in enumerate(ENCODE) if a not in rate_flags and (i == 0 or ENCODE[i - 1] not in rate_flags)]
    for i, (_, _, kbps, fps) in enumerate(rungs):
        gop = str(4 * (fps or 30))
        args += [f"-b:v:{i}", f"{kbps}k", f"-maxrate:v:{i}", f"{kbps}k", f"-bufsize:v:{i}", f"{2 * kbps}k",
                 f"-g:v:{i}", gop, f"-keyint_min:v:{i}", gop]
    streams = " ".join(f"v:{i},agroup:aud" for i in range(len(rungs))) + " a:0,agroup:aud"
    return args + ["-f", "hls", "-hls_time", "4", "-hls_playlist_type", "vod",
                   "-var_stream_map", streams, "-master_pl_name", "index.m3u8",
                   "-hls_segment_filename", os.path.join(out, "v%v", "segment_%05d.ts"),
                   os.path.join(out, "v%v", "index.m3u8")]


def decode(args):
    """Decoding and fitting alone: the video layers the plan shows, each decoded on one thread (as StageMix
    decodes them) and scaled (bilinear, StageMix's filter) or cropped to its tile, then handed on by reference
    to nothing. What any composer that shows these layers pays before it places, mixes or encodes anything.
    (Microphones are left out: the CLI's per-frame audio path would cost more than libopus itself.)"""
    with open(args.plan) as f:
        interval, = json.load(f)["plan"]["intervals"]
    with open(os.path.join(args.capture, "session.json")) as f:
        layers = layers_by_quality(json.load(f))
    cmd = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error"]
    tiles = [t for t in interval["tiles"] if t.get("layer")]
    chains = []
    for i, tile in enumerate(tiles):
        layer = layers[tile["trackId"]][tile["layer"]["quality"]]
        cmd += ["-threads", "1", "-c:v", "vp8", "-i", os.path.join(args.capture, layer["file"])]
        # bilinear, the cheapest filter fit to show (StageMix's choice): this is a lower bound.
        chains.append(f"[{i}:v]{tile_filter(layer, tile['rect'], 'bilinear')}[t{i}]")
    cmd += ["-filter_threads", "1", "-filter_complex", ";".join(chains)]
    for i in range(len(tiles)):
        cmd += ["-map", f"[t{i}]"]
    # wrapped_avframe hands each picture on by reference: the null muxer gets it for free.
    return cmd + ["-c:v", "wrapped_avframe", "-f", "null", "-"]


def encode(args):
    width, height = args.size.split("x")
    head = ["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
            "-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", f"{width}x{height}",
            "-framerate", str(args.fps), "-i", "pipe:0", "-i", args.audio]
    if args.ladder:
        video, maps = ladder_filter("[0:v]", args.ladder, {"width": int(width), "height": int(height)})
        return head + ["-filter_complex", video] + maps + ["-map", "1:a"] + ladder_encode(args.ladder, args.out)
    return head + ["-map", "0:v", "-map", "1:a"] + ENCODE + hls(args.out)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("composite")
    c.add_argument("--capture", required=True)
    c.add_argument("--plan", required=True)
    c.add_argument("--layers", choices=["high", "matching"], required=True)
    c.add_argument("--out", required=True)
    c.add_argument("--ladder")
    e = sub.add_parser("encode")
    e.add_argument("--size", required=True)
    e.add_argument("--fps", required=True)
    e.add_argument("--audio", required=True)
    e.add_argument("--out", required=True)
    e.add_argument("--ladder")
    d = sub.add_parser("decode")
    d.add_argument("--capture", required=True)
    d.add_argument("--plan", required=True)
    sub.add_parser("encoder-settings")
    args = parser.parse_args()
    if args.command == "composite":
        cmd = composite(args)
    elif args.command == "decode":
        cmd = decode(args)
    elif args.command == "encode":
        cmd = encode(args)
    else:
        cmd = ENCODE
    print("\n".join(cmd))


if __name__ == "__main__":
    main()
