#!/usr/bin/env python3
"""Checks a long composition against what its session must give (scripts/soak).

    check.py OUT_DIR RSS.json EXPECT.json

EXPECT.json: {"name", "startedAt" (RFC 3339, ms), "durationMs", "fps", "segmentSeconds",
"tiers": {"HD": 240, ...} (billed minutes per tier; every other tier 0), "tracks": {"TR_x": pixels}}
(each subscribed track, subscribed the whole session: its pixel count, 0 for audio).

Prints one line per check (PASS/FAIL) and the figures as JSON on the last line; exits 1 if any failed.
"""
import datetime
import json
import os
import subprocess
import sys

out, rss_path, expect_path = sys.argv[1:4]
expect = json.load(open(expect_path))
rss = json.load(open(rss_path))
hls = os.path.join(out, "hls")
fps, segment = expect["fps"], expect["segmentSeconds"]
frame = 1 / fps
failures = []
figures = {"name": expect["name"], "sessionSeconds": expect["durationMs"] / 1000}


def check(ok, what):
    print(("PASS  " if ok else "FAIL  ") + what)
    if not ok:
        failures.append(what)


def epoch_ms(text):
    """RFC 3339 with milliseconds (`...T18:00:04.250Z` or `+00:00`) to integer ms since the epoch."""
    day, clock = text.replace("Z", "+00:00").split("T")
    clock, zone = clock[:-6], clock[-6:]
    whole, _, fraction = clock.partition(".")
    base = datetime.datetime.fromisoformat(f"{day}T{whole}{zone}")
    return int(base.timestamp()) * 1000 + int((fraction + "000")[:3])


# Memory: the peak once ten minutes of session are composed, and at the end.
ratio = rss.get("ratio")
figures.update({k: rss.get(k) for k in ("peakAfterSettleMB", "peakAtEndMB", "ratio", "rssGrowthMBPerSessionHour",
                                         "wallSeconds", "cpuSeconds")})
check(rss.get("exitStatus") == 0, f"compose exited {rss.get('exitStatus')}")
check(ratio is not None and ratio <= 1.2,
      f"peak RSS at the end {rss.get('peakAtEndMB')} MB, {ratio}x the peak after {rss['settledAtSeconds']:.0f} s of session "
      f"({rss.get('peakAfterSettleMB')} MB); at most 1.2x")

# The playlist: every segment's duration, the last one's program date time against its place.
lines = open(os.path.join(hls, "index.m3u8")).read().split("\n")
entries, duration, date = [], None, None
for line in lines:
    if line.startswith("#EXTINF:"):
        duration = line[len("#EXTINF:"):].split(",")[0]
    elif line.startswith("#EXT-X-PROGRAM-DATE-TIME:"):
        date = line[len("#EXT-X-PROGRAM-DATE-TIME:"):]
    elif line and not line.startswith("#"):
        whole, _, fraction = duration.partition(".")
        entries.append((line, int(whole) * 1_000_000 + int((fraction + "000000")[:6]), date))
        duration, date = None, None
check("#EXT-X-ENDLIST" in lines and "#EXT-X-PLAYLIST-TYPE:VOD" in lines, "a whole VOD playlist")
count = len(entries)
expected_count = -(-expect["durationMs"] // int(segment * 1000))
check(count == expected_count, f"{count} segments, {expected_count} expected")
last_name, last_us, last_date = entries[-1]
index = count - 1
position_us = sum(us for _, us, _ in entries[:-1])
place_ms = round(index * segment * 1000)
figures.update({"segments": count, "lastSegment": last_name, "lastSegmentPositionMs": position_us / 1000,
                "lastSegmentProgramDateTime": last_date})
check(position_us == place_ms * 1000,
      f"last segment {last_name} starts at {position_us / 1000:.3f} ms of the playlist, its place is {place_ms} ms")
want = epoch_ms(expect["startedAt"]) + place_ms
check(last_date is not None and epoch_ms(last_date) == want,
      f"its #EXT-X-PROGRAM-DATE-TIME {last_date} is startedAt + {place_ms} ms "
      f"({datetime.datetime.fromtimestamp(want / 1000, datetime.timezone.utc).isoformat(timespec='milliseconds')})")
ended_ms = (position_us + last_us) / 1000
check(abs(ended_ms - expect["durationMs"]) <= frame * 1000,
      f"the playlist ends at {ended_ms:.3f} ms, the session at {expect['durationMs']} ms (within a frame)")


def packets(name):
    """(stream type, pts seconds, duration seconds) of every packet of a segment, in file order."""
    path = os.path.join(hls, name)
    if name.endswith(".m4s"):
        joined = path + ".mp4"
        with open(joined, "wb") as f:
            f.write(open(os.path.join(hls, "init.mp4"), "rb").read() + open(path, "rb").read())
        path = joined
    text = subprocess.run(["ffprobe", "-v", "error", "-show_entries", "packet=codec_type,pts_time,duration_time",
                           "-of", "csv=p=0", path], check=True, capture_output=True, text=True).stdout
    rows = []
    for row in text.split():
        kind, pts, length = (row.split(",") + ["", ""])[:3]
        if pts not in ("", "N/A"):
            rows.append((kind, float(pts), float(length) if length not in ("", "N/A") else 0.0))
    return rows


def starts(rows):
    video = min((p for k, p, _ in rows if k == "video"), default=None)
    audio = min((p for k, p, _ in rows if k == "audio"), default=None)
    return video, audio


first_rows, last_rows = packets(entries[0][0]), packets(last_name)
(v0, a0), (v1, a1) = starts(first_rows), starts(last_rows)
check(v0 is not None and v1 is not None and a0 is not None and a1 is not None, "first and last segments have audio and video")
if None not in (v0, v1, a0, a1):
    # Video timestamps: the last segment's first frame is its place after the first segment's.
    check(abs((v1 - v0) * 1000 - place_ms) < 1,
          f"the last segment's video starts {(v1 - v0) * 1000:.3f} ms after the first's, its place is {place_ms} ms")
    # Audio against video at the start: the first AAC frame is the encoder's priming (1,024 samples) before
    # the first frame; at the end: the last audio packet ends with the last frame. Each within one frame.
    aac_frame = 1024 / 48000
    start_offset = a0 + aac_frame - v0
    video_end = max(p + d for k, p, d in last_rows if k == "video")
    audio_end = max(p + d for k, p, d in last_rows if k == "audio")
    end_offset = audio_end - video_end
    figures.update({"audioMinusVideoStartMs": round(start_offset * 1000, 3), "audioMinusVideoEndMs": round(end_offset * 1000, 3),
                    "lastSegmentAudioMinusVideoMs": round((a1 - v1) * 1000, 3)})
    check(abs(start_offset) < frame, f"at the start the audio is {start_offset * 1000:+.1f} ms from the video (AAC priming aside): "
          f"within one frame ({frame * 1000:.1f} ms)")
    check(abs(end_offset) < frame, f"at the end the audio ends {end_offset * 1000:+.1f} ms from the video's last frame: within one frame")
    # The last segment's audio starts on the first AAC frame from its cut: within one AAC frame of its video.
    check(abs(a1 - v1) <= aac_frame + 1e-4,
          f"the last segment's audio starts {(a1 - v1) * 1000:+.1f} ms from its video (within one AAC frame, 21.3 ms)")

# Billing: the session's known stage, minute by minute.
billing = json.load(open(os.path.join(out, "billing.json")))
per_tier = {entry["tier"]: entry["minutes"] for entry in billing["minutesPerTier"]}
want_tiers = {tier: expect["tiers"].get(tier, 0) for tier in per_tier}
figures["minutesPerTier"] = {t: m for t, m in per_tier.items() if m}
check(per_tier == want_tiers and set(expect["tiers"]) <= set(per_tier),
      f"billed minutes per tier {figures['minutesPerTier']}, expected {expect['tiers']}")
check(len(billing["minutes"]) == -(-expect["durationMs"] // 60000), f"{len(billing['minutes'])} started minutes billed")
tracks = {t["trackId"]: t for t in billing["tracks"]}
seconds = expect["durationMs"] / 1000
for track, pixels in expect["tracks"].items():
    t = tracks.get(track)
    check(t is not None and t["subscribedSeconds"] == seconds and t["pixelSeconds"] == pixels * seconds,
          f"{track} subscribed {t and t['subscribedSeconds']} s, {t and t['pixelSeconds']} pixel-seconds "
          f"(expected {seconds} s, {pixels * seconds})")

figures["failures"] = len(failures)
print(json.dumps(figures))
sys.exit(1 if failures else 0)
