import Foundation
import NIOConcurrencyHelpers

/// What a worker has done since it started, for Prometheus to scrape (`stagemix worker --metrics`):
/// attempts by how they ended, jobs running now, time spent per attempt, and the compose CPU seconds
/// by stage that each published output's `report.json` gives.
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

    private struct State {
        var attempts: [Outcome: Int] = [:]
        var running = 0
        var attemptSeconds = 0.0
        var composeCPU: [String: Double] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// The `report.json` stages summed into `stagemix_compose_cpu_seconds_total`.
    static let cpuStages = ["encodeMux", "videoDecode", "videoCompose", "audioDecodeMix"]

    public init() {}

    func started() { state.withLockedValue { $0.running += 1 } }

    func ended(_ outcome: Outcome, seconds: Double) {
        state.withLockedValue {
            $0.running -= 1
            $0.attempts[outcome, default: 0] += 1
            $0.attemptSeconds += seconds
        }
    }

    /// Adds the CPU split of a published composition (its `report.json`); nothing when it has none.
    func addComposeCPU(fromReport url: URL) {
        guard let data = try? Data(contentsOf: url),
              let report = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let cpu = report["cpuSeconds"] as? [String: Any] else { return }
        state.withLockedValue { state in
            for stage in Self.cpuStages {
                if let seconds = cpu[stage] as? Double { state.composeCPU[stage, default: 0] += seconds }
            }
        }
    }

    /// The Prometheus text exposition format (version 0.0.4). `queue` adds the queue's jobs by state, as
    /// this worker's queue reports them at scrape time (every worker scraped reports the same numbers).
    public func render(queue: [JobState: Int]? = nil) -> String {
        let s = state.withLockedValue { $0 }
        var out = """
        # HELP stagemix_worker_attempts_total Compose attempts this worker finished, by how they ended.
        # TYPE stagemix_worker_attempts_total counter

        """
        for outcome in Outcome.allCases {
            out += "stagemix_worker_attempts_total{outcome=\"\(outcome.rawValue)\"} \(s.attempts[outcome, default: 0])\n"
        }
        out += """
        # HELP stagemix_worker_running Compose attempts running now.
        # TYPE stagemix_worker_running gauge
        stagemix_worker_running \(s.running)
        # HELP stagemix_worker_attempt_seconds_total Wall seconds spent in finished attempts.
        # TYPE stagemix_worker_attempt_seconds_total counter
        stagemix_worker_attempt_seconds_total \(s.attemptSeconds)
        # HELP stagemix_compose_cpu_seconds_total CPU seconds of published compositions, by stage (report.json).
        # TYPE stagemix_compose_cpu_seconds_total counter

        """
        for stage in Self.cpuStages {
            out += "stagemix_compose_cpu_seconds_total{stage=\"\(stage)\"} \(s.composeCPU[stage, default: 0])\n"
        }
        if let queue {
            out += """
            # HELP stagemix_queue_jobs Jobs in the queue by state (queued and failed are waiting to run).
            # TYPE stagemix_queue_jobs gauge

            """
            for state in JobState.allCases {
                out += "stagemix_queue_jobs{state=\"\(state.rawValue)\"} \(queue[state, default: 0])\n"
            }
        }
        return out
    }
}
