import Dispatch
public import Foundation
import Hummingbird
public import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import StageMixQueue
import StageMixStorage

/// `stagemix serve`: the HTTP API, the webhook dispatcher and, with `workers` > 0, a worker composing
/// jobs, in one process that SIGTERM or SIGINT stops gracefully and SIGHUP makes re-read its keys.
public enum StageMixServer {
    public static func run(_ configuration: ServiceConfiguration, logLevel: Logger.Level = .info) async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "stagemix.serve")

        let keys = try APIKeyStore(path: configuration.keysPath)
        let roots = try CaptureRoots(configuration.captureRoots)
        let storage = try StorageAllowList(configuration.allowStorage)
        if !storage.prefixes.isEmpty {
            // Credentials come from this process's environment and ~/.aws, read afresh per request;
            // a configuration that cannot work is said now, not on the first request.
            do {
                _ = try StorageConfiguration.fromEnvironment()
            } catch {
                throw ServiceSetupError("--allow-storage: \(error)")
            }
        }
        let outputRoot = try OutputRoot(configuration, storage: storage)
        // Everything that can refuse the configuration is checked before the queue is opened.
        let policy = CallbackPolicy(allowPrivate: configuration.allowPrivateCallbacks)
        let janus = try configuration.janus.map { try janusSetup($0, policy: policy, inputs: outputRoot.inputs) }
        guard let store = try await configuration.queue.open(options: configuration.queueOptions) as? any SQLJobStore else {
            throw ServiceSetupError("the queue \(configuration.queue) cannot hold compositions")
        }
        let metrics = WorkerMetrics(registry: registry)
        let api = CompositionAPI(store: store, verifier: TokenVerifier(keys: keys), roots: roots, storage: storage, callbacks: policy,
                                 outputRoot: outputRoot.destination, tables: InlineTables(directory: outputRoot.inputs),
                                 maxAttempts: configuration.maxAttempts, metrics: metrics, publicURL: configuration.publicURL)
        var services: [any Service] = [
            WebhookDispatcher(store: store, keys: keys, policy: policy, schedule: configuration.webhookRetry,
                              logger: Logger(label: "stagemix.webhooks")),
        ]
        if let janus {
            services.append(JanusRoomEnding(store: store, api: api, configuration: janus.configuration, settings: janus.settings,
                                            inputs: outputRoot.inputs, logger: Logger(label: "stagemix.janus")))
        }
        if configuration.workers > 0 {
            var worker = configuration.worker
            worker.concurrency = configuration.workers
            services.append(Worker(queue: store, configuration: worker, logger: Logger(label: "stagemix.worker"), metrics: metrics))
        }

        signal(SIGHUP, SIG_IGN)
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        hangup.setEventHandler {
            do {
                try keys.reload()
                logger.notice("keys file re-read: \(keys.count) keys")
            } catch {
                logger.error("keys file not re-read, the keys in use stay: \(error)")
            }
        }
        hangup.resume()
        defer { hangup.cancel() }

        let host = configuration.host
        let router = api.router()
        JanusEventsRoute(store: store, verifier: TokenVerifier(keys: keys), enabled: configuration.janus != nil).add(to: router)
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "StageMix"),
            services: services,
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                logger.notice("listening on http://\(host):\(port)", metadata: [
                    "queue": "\(configuration.queue)", "workers": "\(configuration.workers)", "outputRoot": "\(outputRoot.destination)",
                ])
            },
            logger: logger)
        do {
            try await app.runService(gracefulShutdownSignals: [.sigterm, .sigint])
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }
}
