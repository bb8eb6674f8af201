import Foundation
@testable public import StageMixQueue
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `stagemix worker` binary as separate processes.
public struct WorkerProcesses: Sendable {
    public let directory: String
    public let queueURL: String
    public let composeScript: String
    private let started = StartedWorkers()

    public init(directory: String, queueURL: String, composeScript: String) {
        self.directory = directory
        self.queueURL = queueURL
        self.composeScript = composeScript
    }

    public static var binary: String {
        get throws {
            var candidates: [String] = []
            if let explicit = ProcessInfo.processInfo.environment["STAGEMIX_BINARY"] { candidates.append(explicit) }
            // Next to the test bundle in the build directory.
            if let runner = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
                var dir = URL(fileURLWithPath: runner).deletingLastPathComponent()
                for _ in 0..<3 {
                    candidates.append(dir.appendingPathComponent("stagemix").path)
                    dir = dir.deletingLastPathComponent()
                }
            }
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            for build in [".build-queue", ".build"] { candidates.append(root.appendingPathComponent("\(build)/debug/stagemix").path) }
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                throw TestFailure("no built stagemix binary (looked at \(candidates)); run `swift build --build-tests` first")
            }
            return found
        }
    }

    /// Starts one worker process with short leases and heartbeats, so tests see rescues quickly.
    /// With `realCompose`, the worker runs this binary's own `stagemix compose` instead of the script;
    /// with `environment`, the worker (and so its compose children) has those variables too.
    public func start(name: String, concurrency: Int = 1, shutdownGrace: Double = 10, leaseSeconds: Double = 2, heartbeatSeconds: Double = 0.3,
               pollSeconds: Double = 0.2, realCompose: Bool = false, extraArguments: [String] = [],
               environment: EnvironmentFile? = nil) throws -> RunningProcess {
        var arguments = [
            try Self.binary, "worker", "--queue", queueURL, "--concurrency", "\(concurrency)", "--shutdown-grace", "\(shutdownGrace)",
            "--lease-seconds", "\(leaseSeconds)", "--heartbeat-seconds", "\(heartbeatSeconds)", "--poll-seconds", "\(pollSeconds)",
            "--retry-base-seconds", "0.2", "--worker-id", name,
        ]
        if !realCompose { arguments += ["--compose-command", "/bin/bash \(composeScript)"] }
        arguments += extraArguments
        // exec, so the shell's pid is the worker's: signals go to the worker itself.
        let command = EnvironmentFile.exec(arguments, with: environment) + " >'\(directory)/\(name).log' 2>&1"
        let worker = RunningProcess(child: try ChildProcess(arguments: ["/bin/bash", "-c", command]) { _ in })
        started.add(worker)
        return worker
    }

    /// SIGKILLs every worker still running.
    public func stopAll() async {
        for worker in started.all { await worker.stop() }
    }

    /// Runs `stagemix <arguments>` to completion (with `environment`'s variables too) and returns its stdout.
    public func cli(_ arguments: [String], environment: EnvironmentFile? = nil) async throws -> String {
        let command = EnvironmentFile.exec([try Self.binary] + arguments + ["--queue", queueURL], with: environment)
        return try await run("/bin/bash", ["-c", command]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `GET path` from a worker's metrics endpoint, through bash's /dev/tcp: the raw HTTP response
    /// (read to the end, so the request asks the server to close the connection after it).
    public func httpGet(port: Int, path: String) async throws -> String {
        try await run("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/\(port) && printf 'GET \(path) HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3 && cat <&3"])
    }

    public func logs() -> String {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".log") }.sorted().map { name in
            "== \(name)\n" + ((try? String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)) ?? "")
        }.joined(separator: "\n")
    }
}

final class StartedWorkers: @unchecked Sendable {
    private let lock = NSLock()
    private var workers: [RunningProcess] = []

    func add(_ worker: RunningProcess) { lock.withLock { workers.append(worker) } }
    var all: [RunningProcess] { lock.withLock { workers } }
}

/// A running `stagemix` process: a worker, or `serve`.
public struct RunningProcess: Sendable {
    public let child: ChildProcess

    public init(child: ChildProcess) { self.child = child }

    public var isRunning: Bool { child.exit == nil }
    public var exit: ChildProcess.Exit? { child.exit }

    public func send(_ signal: Int32) { child.send(signal) }

    public func waitForExit(seconds: Double) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            if Date() > deadline { throw TestFailure("worker \(child.pid) still running after \(seconds) s") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    public func stop() async {
        guard isRunning else { return }
        child.kill()
        _ = await child.waitForExit()
    }
}
