#!/usr/bin/env python3
"""An object store that misbehaves: an HTTP proxy on loopback in front of an S3 server (moto) that,
for a share of the requests chosen at random (seeded), injects one fault:

  drop      the request is read and the connection closed: the store never sees it
  lost      the request is passed on and done, and the connection closed before the answer: the
            client cannot tell it from a drop (a PUT landed, its answer did not)
  slowdown  503 SlowDown, answered without passing the request on
  delay     0.2 to 2 s of wait, then the request passed on and answered as usual

Every other request goes through unchanged, Host header included, so that signatures still hold.
Each request is logged, one tab-separated line: time, number, method, path (query dropped), fault
(- for none), the store's status (- when it did not answer or was not asked).

  fault-proxy.py --upstream HOST:PORT --port PORT --log FILE [--seed N]
                 [--drop P] [--lost P] [--slowdown P] [--delay P]
"""
import argparse
import http.client
import http.server
import random
import socketserver
import sys
import threading
import time

HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade", "te", "trailer"}
SLOWDOWN = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SlowDown</Code>'
            b'<Message>Please reduce your request rate.</Message></Error>')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--seed", type=int, default=1)
    for fault in ("drop", "lost", "slowdown", "delay"):
        parser.add_argument(f"--{fault}", type=float, default=0.0)
    args = parser.parse_args()
    host, port = args.upstream.rsplit(":", 1)
    rng = random.Random(args.seed)
    lock = threading.Lock()
    counter = [0]
    log = open(args.log, "a", buffering=1)
    shares = [("drop", args.drop), ("lost", args.lost), ("slowdown", args.slowdown), ("delay", args.delay)]

    def pick():
        with lock:
            counter[0] += 1
            draw = rng.random()
            delay = rng.uniform(0.2, 2.0)
            n = counter[0]
        for fault, share in shares:
            if draw < share:
                return n, fault, delay
            draw -= share
        return n, None, 0.0

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_):
            pass

        def record(self, n, fault, status):
            log.write(f"{time.time():.3f}\t{n}\t{self.command}\t{self.path.split('?')[0]}\t{fault or '-'}\t{status}\n")

        def body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                            pass
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length) if length else b""

        def hang_up(self):
            self.close_connection = True
            try:
                self.connection.shutdown(2)
            except OSError:
                pass

        def handle_any(self):
            body = self.body()
            n, fault, delay = pick()
            if fault == "drop":
                self.record(n, fault, "-")
                return self.hang_up()
            if fault == "slowdown":
                self.record(n, fault, "-")
                self.send_response(503)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(SLOWDOWN)))
                self.end_headers()
                self.wfile.write(SLOWDOWN)
                return
            if fault == "delay":
                time.sleep(delay)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
            if self.command in ("PUT", "POST"):
                headers["Content-Length"] = str(len(body))
            upstream = http.client.HTTPConnection(host, int(port), timeout=120)
            try:
                upstream.request(self.command, self.path, body=body if body or self.command in ("PUT", "POST") else None,
                                 headers=headers)
                answer = upstream.getresponse()
                data = answer.read()
            except OSError:
                self.record(n, fault, "-")
                return self.hang_up()
            finally:
                upstream.close()
            self.record(n, fault, answer.status)
            if fault == "lost":
                return self.hang_up()
            self.send_response(answer.status)
            for k, v in answer.getheaders():
                if k.lower() not in HOP and k.lower() != "content-length":
                    self.send_header(k, v)
            # A HEAD's length is the object's, not that of the (empty) body.
            length = answer.getheader("Content-Length", "0") if self.command == "HEAD" else str(len(data))
            self.send_header("Content-Length", length)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)

        do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", args.port), Handler)
    print(f"fault proxy on 127.0.0.1:{args.port} -> {args.upstream}", file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
