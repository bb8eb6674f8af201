import Logging
import ServiceLifecycle

/// Runs a ``Worker`` as `stagemix worker` does: logging to stderr, a `ServiceGroup` that turns
/// SIGTERM/SIGINT into a graceful shutdown, the queue closed at the end.
public enum WorkerProcess {
    public static func run(queueURL: QueueURL, options: QueueOptions, configuration: WorkerConfiguration, logLevel: Logger.Level = .info) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let logger = Logger(label: "stagemix.worker")
        let queue = try await queueURL.open(options: options)
        let worker = Worker(queue: queue, configuration: configuration, logger: logger)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: worker)],
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
