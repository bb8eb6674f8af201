import Hummingbird
public import Logging
import ServiceLifecycle
public import StageMixQueue

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
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: worker)]
        if let (host, port) = metrics {
            // If the address cannot be bound, the group stops and the worker with it.
            services.append(.init(service: Application(
                router: MetricsEndpoint.router(worker.metrics, queue: queue),
                configuration: .init(address: .hostname(host, port: port), serverName: "StageMix"),
                onServerRunning: { channel in
                    logger.info("metrics at http://\(host):\(channel.localAddress?.port ?? port)/metrics")
                },
                logger: logger)))
        }
        let group = ServiceGroup(configuration: .init(
            services: services,
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger
        ))
        do {
            try await group.run()
        } catch {
            await queue.close()
            throw error
        }
        await queue.close()
    }
}
