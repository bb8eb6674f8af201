import ArgumentParser
import StageMixQueue
import StageMixService

extension StageMix {
    /// `stagemix worker`: runs queued compose jobs until SIGTERM.
    struct Worker: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run queued compose jobs, each in a child process.")

        @OptionGroup var queue: QueueOption
        @Option(help: "Jobs run at once.") var concurrency: Int = 1
        @Option(name: .customLong("shutdown-grace"), help: "Seconds a job may go on after SIGTERM.") var shutdownGrace: Double = 30
        @Option(name: .customLong("lease-seconds"), help: "A job whose worker is silent this long is rescued.") var leaseSeconds: Double = 30
        @Option(name: .customLong("heartbeat-seconds")) var heartbeatSeconds: Double = 5
        @Option(name: .customLong("poll-seconds"), help: "Longest wait between looks for work.") var pollSeconds: Double = 1
        @Option(name: .customLong("retry-base-seconds"), help: "Back-off after the first failure; doubles each attempt.") var retryBaseSeconds: Double = 5
        @Option(name: .customLong("compose-command"), help: "Compose executable and leading arguments, space-separated (default: this binary's compose).")
        var composeCommand: String?
        @Option(name: .customLong("worker-id")) var workerID: String?
        @Option(help: "Serve Prometheus metrics at http://HOST:PORT/metrics, e.g. 0.0.0.0:9464 (port 0: any free port).")
        var metrics: String?

        /// `--metrics` split into host and port.
        var metricsAddress: (host: String, port: Int)? {
            get throws {
                guard let metrics else { return nil }
                guard let colon = metrics.lastIndex(of: ":"), let port = Int(metrics[metrics.index(after: colon)...]),
                      (0...65535).contains(port), colon > metrics.startIndex else {
                    throw ValidationError("--metrics must be HOST:PORT, such as 0.0.0.0:9464, not \(metrics)")
                }
                return (String(metrics[..<colon]), port)
            }
        }

        func validate() throws {
            if concurrency < 1 { throw ValidationError("--concurrency must be at least 1") }
            if heartbeatSeconds <= 0 || leaseSeconds <= heartbeatSeconds {
                throw ValidationError("--lease-seconds must be longer than --heartbeat-seconds")
            }
            _ = try metricsAddress
        }

        func run() async throws {
            var configuration = WorkerConfiguration(
                concurrency: concurrency, shutdownGrace: .milliseconds(Int(shutdownGrace * 1000)),
                leaseSeconds: leaseSeconds, heartbeatSeconds: heartbeatSeconds,
                pollInterval: .milliseconds(Int(pollSeconds * 1000))
            )
            if let workerID { configuration.workerID = workerID }
            if let composeCommand { configuration.composeCommand = composeCommand.split(separator: " ").map(String.init) }
            try await WorkerProcess.run(
                queueURL: try queue.url,
                options: QueueOptions(retry: .jobRetry(baseDelay: retryBaseSeconds)),
                configuration: configuration,
                metrics: try metricsAddress
            )
        }
    }
}
