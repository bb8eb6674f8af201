#!/usr/bin/env python3
"""Runs `stagemix compose ...` and samples its memory against the session position.

    rss.py OUT.json SESSION_SECONDS -- stagemix compose CAPTURE --out DIR ...

Every 0.5 s it reads VmRSS and VmHWM (the peak so far) from /proc/PID/status, beside the position the
progress lines on stdout give (percent of SESSION_SECONDS). At the end the kernel's own peak
(ru_maxrss, from wait4) is the peak at the end. Writes OUT.json: the samples, the peak once 10 minutes
of session were composed, the peak at the end, their ratio, and the growth per hour of session
(a least-squares slope of VmRSS over the samples after 10 minutes). Exits with the command's status.
"""
import json
import os
import subprocess
import sys
import threading
import time

out_path, session_seconds = sys.argv[1], float(sys.argv[2])
command = sys.argv[sys.argv.index("--") + 1:]
settle = min(600.0, session_seconds / 6)  # "after the first 10 minutes" (a shorter session: its first sixth)

started = time.monotonic()
child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
position = [0.0]


def follow_progress():
    for line in child.stdout:
        try:
            fields = json.loads(line)
        except ValueError:
            continue
        if isinstance(fields, dict) and "percent" in fields:
            position[0] = fields["percent"] / 100 * session_seconds


reader = threading.Thread(target=follow_progress, daemon=True)
reader.start()


def status():
    try:
        with open(f"/proc/{child.pid}/status") as f:
            fields = dict(line.split(":", 1) for line in f if ":" in line)
        return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])
    except (OSError, KeyError, ValueError):
        return None


samples = []
rusage = None
while True:
    pid, code, usage = os.wait4(child.pid, os.WNOHANG)
    if pid == child.pid:
        rusage = usage
        break
    now = status()
    if now:
        samples.append({"wall": round(time.monotonic() - started, 2), "position": round(position[0], 1),
                        "rssKB": now[0], "hwmKB": now[1]})
    time.sleep(0.5)
reader.join(timeout=5)
status_code = os.waitstatus_to_exitcode(code)

after_settle = [s for s in samples if s["position"] >= settle]
peak_settled = after_settle[0]["hwmKB"] if after_settle else None
peak_end = rusage.ru_maxrss
slope = None
fit = [s for s in samples if settle <= s["position"] < session_seconds - 1]
if len(fit) >= 3:
    n = len(fit)
    xs = [s["position"] / 3600 for s in fit]
    ys = [s["rssKB"] / 1024 for s in fit]
    mx, my = sum(xs) / n, sum(ys) / n
    var = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / var if var > 0 else None
result = {
    "command": command, "exitStatus": status_code, "sessionSeconds": session_seconds,
    "wallSeconds": round(time.monotonic() - started, 1),
    "cpuSeconds": round(rusage.ru_utime + rusage.ru_stime, 1),
    "settledAtSeconds": settle,
    "peakAfterSettleMB": round(peak_settled / 1024, 1) if peak_settled else None,
    "peakAtEndMB": round(peak_end / 1024, 1),
    "ratio": round(peak_end / peak_settled, 3) if peak_settled else None,
    "rssGrowthMBPerSessionHour": round(slope, 2) if slope is not None else None,
    "samples": samples,
}
with open(out_path, "w") as f:
    json.dump(result, f, indent=1)
sys.exit(status_code)
