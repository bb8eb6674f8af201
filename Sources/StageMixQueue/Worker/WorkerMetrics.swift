public import Foundation
import CoreMetrics
import Metrics
public import Prometheus

/// What a worker has done since it started, for Prometheus to scrape (`stagemix worker --metrics`,
/// `stagemix serve`'s `/metrics`): attempts by how they ended, jobs running now, time spent per
/// attempt, and the compose CPU seconds by stage that each published output's `report.json` gives.
/// Counted through swift-metrics into a swift-prometheus registry, which also renders the text.
public final class WorkerMetrics: Sendable {
    /// How an attempt ended.
    public enum Outcome: String, Sendable, CaseIterable {
        case succeeded
        /// Compose failed and the job may be retried.
        case failed
        /// Compose exited 65: the job is dead at once.
        case badInput = "bad_input"
        case cancelled
        /// Released at shutdown, for another worker.
        case released
        /// Another worker rescued the job; this attempt's output was dropped.
        case leaseLost = "lease_lost"
    }

    /// Where the metrics are kept; `/metrics` renders it.
    public let registry: PrometheusCollectorRegistry
    private let attempts: [Outcome: CoreMetrics.Counter]
    private let running: CoreMetrics.Meter
    private let attemptSeconds: FloatingPointCounter
    private let composeCPU: [String: FloatingPointCounter]
    private let queueJobs: [JobState: CoreMetrics.Meter]
    private let queueChunks: [JobState: CoreMetrics.Meter]
    /// The `report.json` stages summed into `stagemix_compose_cpu_seconds_total`.
    static let cpuStages = ["encodeMux", "videoDecode", "videoCompose", "audioDecodeMix"]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        let factory = PrometheusMetricsFactory(registry: registry)
        attempts = Dictionary(uniqueKeysWithValues: Outcome.allCases.map {
            ($0, CoreMetrics.Counter(label: "stagemix_worker_attempts_total", dimensions: [("outcome", $0.rawValue)], factory: factory))
        })
        running = CoreMetrics.Meter(label: "stagemix_worker_running", factory: factory)
        attemptSeconds = FloatingPointCounter(label: "stagemix_worker_attempt_seconds_total", factory: factory)
        composeCPU = Dictionary(uniqueKeysWithValues: Self.cpuStages.map {
            ($0, FloatingPointCounter(label: "stagemix_compose_cpu_seconds_total", dimensions: [("stage", $0)], factory: factory))
        })
        queueJobs = Dictionary(uniqueKeysWithValues: JobState.allCases.map {
            ($0, CoreMetrics.Meter(label: "stagemix_queue_jobs", dimensions: [("state", $0.rawValue)], factory: factory))
        })
        // Chunks of chunked compositions, apart from the compositions `stagemix_queue_jobs` counts.
        queueChunks = Dictionary(uniqueKeysWithValues: JobState.allCases.map {
            ($0, CoreMetrics.Meter(label: "stagemix_queue_chunks", dimensions: [("state", $0.rawValue)], factory: factory))
        })
    }

    func started() { running.increment() }

    func ended(_ outcome: Outcome, seconds: Double) {
        running.decrement()
        attempts[outcome]?.increment()
        attemptSeconds.increment(by: max(0, seconds))
    }

    /// Adds the CPU split of a published composition (its `report.json`); nothing when it has none.
    func addComposeCPU(fromReport data: Data) {
        guard let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cpu = report["cpuSeconds"] as? [String: Any] else { return }
        for stage in Self.cpuStages {
            if let seconds = cpu[stage] as? Double, seconds.isFinite, seconds > 0 { composeCPU[stage]?.increment(by: seconds) }
        }
    }

    /// One scrape: the queue's jobs by state as `queue` reports them now, then ``render(queue:)``. The
    /// queue has 2 s to answer; one that does not leaves its gauge out of this scrape rather than holding it up.
    public func scrape(_ queue: (any JobQueue)?) async -> String {
        var counts: [JobState: Int]?
        var chunks: [JobState: Int]?
        if let queue {
            counts = try? await withDeadline(2) { try await queue.countByState() }
            chunks = try? await withDeadline(2) { try await queue.countChunksByState() }
        }
        return render(queue: counts, chunks: chunks)
    }

    /// The Prometheus text exposition format (version 0.0.4). `queue` sets the queue's jobs by state
    /// first, as this worker's queue reports them at scrape time (every worker scraped reports the same).
    public func render(queue: [JobState: Int]? = nil, chunks: [JobState: Int]? = nil) -> String {
        if let queue {
            for state in JobState.allCases { queueJobs[state]?.set(queue[state, default: 0]) }
        }
        if let chunks {
            for state in JobState.allCases { queueChunks[state]?.set(chunks[state, default: 0]) }
        }
        return registry.emitToString()
    }
}
