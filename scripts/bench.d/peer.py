#!/usr/bin/env python3
"""The ffmpeg command lines StageMix is measured against, written from the plan as a user would.

    peer.py composite --capture DIR --plan PLAN.json --layers high|matching --out HLSDIR
    peer.py encode    --size WxH --fps N --audio MIX.wav --out HLSDIR
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
    cmd += ["-filter_complex", video + ";" + audio, "-map", "[v]", "-map", "[a]", "-r", str(plan["fps"])]
    return cmd + ENCODE + hls(args.out)


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
    return (["ffmpeg", "-hide_banner", "-nostdin", "-loglevel", "error", "-y",
             "-f", "rawvideo", "-pix_fmt", "yuv420p", "-video_size", f"{width}x{height}",
             "-framerate", str(args.fps), "-i", "pipe:0", "-i", args.audio, "-map", "0:v", "-map", "1:a"]
            + ENCODE + hls(args.out))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("composite")
    c.add_argument("--capture", required=True)
    c.add_argument("--plan", required=True)
    c.add_argument("--layers", choices=["high", "matching"], required=True)
    c.add_argument("--out", required=True)
    e = sub.add_parser("encode")
    e.add_argument("--size", required=True)
    e.add_argument("--fps", required=True)
    e.add_argument("--audio", required=True)
    e.add_argument("--out", required=True)
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
