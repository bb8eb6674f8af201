#!/usr/bin/env python3
"""Small HTTP server for scripts/janus-record, run inside the browsers' namespace.

  serve.py pages  ADDR PORT WEBROOT LOGFILE   serve WEBROOT; POST /log appends
                                               {"t_us": <receipt, CLOCK_REALTIME us>, ...body}
                                               as one JSON line to LOGFILE
  serve.py events ADDR PORT PATH OUTFILE      POST PATH (Janus sample event handler):
                                               each body (gunzipped if Content-Encoding: gzip)
                                               appended as one JSON line to OUTFILE
"""
import gzip, json, os, sys, threading, time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()

def append_line(path, obj):
    line = json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
    with lock, open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()

def read_body(handler):
    n = int(handler.headers.get("Content-Length") or 0)
    body = handler.rfile.read(n) if n else b""
    if (handler.headers.get("Content-Encoding") or "").lower() == "gzip":
        body = gzip.decompress(body)
    return body

class Pages(SimpleHTTPRequestHandler):
    logfile = None
    def log_message(self, *a):  # quiet
        pass
    def end_headers(self):
        self.send_header("Cache-Control", "no-store")
        super().end_headers()
    def do_POST(self):
        t_us = time.time_ns() // 1000
        try:
            obj = json.loads(read_body(self).decode("utf-8"))
        except Exception as e:  # keep going, but record it
            obj = {"bad_log": str(e)}
        append_line(self.logfile, {"t_us": t_us, **obj})
        self.send_response(204)
        self.end_headers()

class Events(SimpleHTTPRequestHandler):
    path_ = "/janus-events"
    outfile = None
    def log_message(self, *a):
        pass
    def do_GET(self):
        self.send_error(404)
    def do_POST(self):
        if self.path.split("?")[0] != self.path_:
            self.send_error(404)
            return
        raw = read_body(self)
        try:
            obj = json.loads(raw.decode("utf-8"))
        except Exception:
            obj = {"unparsed": raw.decode("utf-8", "replace")}
        append_line(self.outfile, obj)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

def main():
    mode, addr, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if mode == "pages":
        Pages.logfile = sys.argv[5]
        handler = partial(Pages, directory=sys.argv[4])
    elif mode == "events":
        Events.path_, Events.outfile = sys.argv[4], sys.argv[5]
        open(Events.outfile, "a").close()
        handler = Events
    else:
        sys.exit("unknown mode " + mode)
    srv = ThreadingHTTPServer((addr, port), handler)
    srv.daemon_threads = True
    print(f"{mode} server on http://{addr}:{port}", flush=True)
    srv.serve_forever()

if __name__ == "__main__":
    main()
