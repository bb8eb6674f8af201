public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The tests' own fault-injecting HTTP proxy between StageMix and an S3 server: every `every`-th
/// request gets the next fault of `faults` in turn — `slowdown` (503 SlowDown), `500`
/// (InternalError), `drop` (a GET's answer cut off halfway through its body, then the connection
/// closed; due on another request, it goes to the next GET) or `slow` (two seconds' wait, then the real answer) — and every other request is passed
/// through unchanged, `Host` header included, so signatures still hold. A 503 or 500 is answered
/// before the server sees the request, so a fault never changes what is stored. With `losing`, the
/// first PUT whose path ends with it is passed on and done, and its answer lost (the connection
/// closed instead): a write that landed, as a client whose network failed sees it (`lost`).
public final class FaultProxy: @unchecked Sendable {
    let process: Process
    public let endpoint: URL
    /// One line per request: number, method, path, and the fault it got (`-` for none).
    public let log: URL

    public init(upstream: URL, every: Int, faults: [String], losing: String = "") throws {
        let port = try MotoServer.freePort()
        endpoint = URL(string: "http://127.0.0.1:\(port)")!
        log = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-fault-proxy-\(port).log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script, upstream.host ?? "127.0.0.1", String(upstream.port ?? 80), port,
                             String(every), faults.joined(separator: ","), log.path, losing]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Listening once a connection is accepted.
        for _ in 0..<100 {
            if (try? MotoServer.python("import socket; socket.create_connection(('127.0.0.1', \(port)), 1).close()")) != nil { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// The faults injected so far, by kind.
    public func injected() -> [String: Int] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            if let fault = line.split(separator: " ").last, fault != "-" { counts[String(fault), default: 0] += 1 }
        }
        return counts
    }

    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    static let script = #"""
        import http.client, http.server, socketserver, sys, threading, time
        upstream_host, upstream_port, port, every, faults, log_path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5].split(","), sys.argv[6]
        losing = sys.argv[7]
        lock = threading.Lock()
        state = {"n": 0, "lost": False}
        log = open(log_path, "a")
        HOP = {"connection", "keep-alive", "transfer-encoding", "proxy-connection", "upgrade"}
        ERRORS = {"slowdown": (503, "SlowDown", "Please reduce your request rate."), "500": (500, "InternalError", "We encountered an internal error.")}

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass

            def handle_any(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with lock:
                    state["n"] += 1
                    n = state["n"]
                    fault = faults[(n // every - 1) % len(faults)] if n % every == 0 else None
                    # A drop is for an answer with a body: one due on another request waits for the next GET.
                    if fault == "drop" and self.command != "GET":
                        state["drop"], fault = True, None
                    elif fault is None and state.get("drop") and self.command == "GET":
                        state["drop"], fault = False, "drop"
                    if losing and not state["lost"] and self.command == "PUT" and self.path.split("?")[0].endswith(losing):
                        state["lost"], fault = True, "lost"
                log.write(f"{n} {self.command} {self.path.split('?')[0]} {fault or '-'}\n")
                log.flush()
                if fault in ERRORS:
                    status, code, message = ERRORS[fault]
                    data = f"<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>{code}</Code><Message>{message}</Message></Error>".encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/xml")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                if fault == "slow":
                    time.sleep(2)
                conn = http.client.HTTPConnection(upstream_host, upstream_port, timeout=120)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP}
                conn.request(self.command, self.path, body=body, headers=headers)
                answer = conn.getresponse()
                data = answer.read()
                if fault == "lost":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                self.send_response(answer.status)
                for k, v in answer.getheaders():
                    if k.lower() not in HOP and k.lower() != "content-length":
                        self.send_header(k, v)
                if self.command == "HEAD":
                    self.send_header("Content-Length", answer.getheader("Content-Length") or "0")
                    self.end_headers()
                    return
                self.send_header("Content-Length", str(len(data)))
                if fault == "drop":
                    self.send_header("Connection", "close")
                    self.end_headers()
                    self.wfile.write(data[: len(data) // 2])
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        Server(("127.0.0.1", port), Handler).serve_forever()
        """#
}
