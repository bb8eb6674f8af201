import Logging
import ServiceLifecycle

/// Runs a ``Worker`` as `stagemix worker` does: logging to stderr, a `ServiceGroup` that turns
/// SIGTERM/SIGINT into a graceful shutdown, the queue closed at the end.
public enum WorkerProcess {
    /// `metrics`, as `host:port`, serves Prometheus metrics at `/metrics` while the worker runs.
    public static func run(queueURL: QueueURL, options: QueueOptions, configuration: WorkerConfiguration,
                           metrics: (host: String, port: Int)? = nil, logLevel: Logger.Level = .info) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "stagemix.worker")
        let queue = try await queueURL.open(options: options)
        let worker = Worker(queue: queue, configuration: configuration, logger: logger)
        var server: MetricsServer?
        if let metrics {
            do {
                server = try await MetricsServer.start(host: metrics.host, port: metrics.port, metrics: worker.metrics, queue: queue)
                logger.info("metrics at http://\(metrics.host):\(server?.address?.port ?? metrics.port)/metrics")
            } catch {
                await queue.close()
                throw QueueError(.badURL, "cannot serve metrics on \(metrics.host):\(metrics.port): \(error)")
            }
        }
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: worker)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        do {
            try await group.run()
        } catch {
            await server?.close()
            await queue.close()
            throw error
        }
        await server?.close()
        await queue.close()
    }
}
