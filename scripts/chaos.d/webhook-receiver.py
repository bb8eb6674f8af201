#!/usr/bin/env python3
"""A webhook receiver on loopback that counts: every POST is checked as a Standard Webhooks receiver
checks it (HMAC-SHA256 of "<id>.<timestamp>.<body>" with the API key's secret) and logged, one JSON
object a line: time, webhook-id, type, composition id, whether the signature holds, and the status
answered. A share of the deliveries (seeded) is answered 503, as a receiver that is briefly down
would: those are not deliveries, and StageMix must send them again. Each answer takes up to
--latency seconds, as a receiver that does some work before it answers.

  webhook-receiver.py --port PORT --secret-file FILE --log FILE [--refuse P] [--latency S] [--seed N]
"""
import argparse
import base64
import hashlib
import hmac
import http.server
import json
import random
import socketserver
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--secret-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--refuse", type=float, default=0.0)
    parser.add_argument("--latency", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    secret = open(args.secret_file, "rb").read().strip()
    rng = random.Random(args.seed)
    lock = threading.Lock()
    log = open(args.log, "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            wid = self.headers.get("webhook-id", "")
            stamp = self.headers.get("webhook-timestamp", "")
            expected = base64.b64encode(hmac.new(secret, f"{wid}.{stamp}.".encode() + body, hashlib.sha256).digest()).decode()
            signed = any(part == f"v1,{expected}" for part in self.headers.get("webhook-signature", "").split(" "))
            try:
                event = json.loads(body)
            except ValueError:
                event = {}
            with lock:
                refuse = rng.random() < args.refuse
                wait = rng.uniform(0, args.latency)
                status = 503 if refuse or not signed else 204
                log.write(json.dumps({"t": round(time.time(), 3), "id": wid, "type": event.get("type"),
                                      "composition": (event.get("data") or {}).get("id"), "signed": signed,
                                      "status": status, "path": self.path}) + "\n")
            time.sleep(wait)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", args.port), Handler)
    print(f"webhook receiver on 127.0.0.1:{args.port}", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
