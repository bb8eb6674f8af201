import StageMixOptions
import StageMixQueueTestSupport
import StageMixTime
import Testing
@testable import StageMixQueue

/// What `stagemix jobs list` and `jobs show` say of a job, from the lifecycle alone (issue 32): a
/// chunked composition that never failed has used one attempt and, published, has no phase left; a
/// job released at shutdown shows no progress of the attempt that was given back.
@Suite("Job report")
struct JobReportTests {
    let policy = Backoff(baseDelay: 10, maxDelay: 100, jitter: 0.5...1)

    func chunked(maxAttempts: Int = 5) -> Job {
        Job(id: "c", spec: JobSpec(capture: "/c", out: "/o", options: ComposeOptions(chunkSeconds: 8)), maxAttempts: maxAttempts, now: 0)
    }

    /// Claims the plan and splits it: the composition waits for its join.
    func planned(_ job: inout Job) throws {
        guard case .start(let plan) = job.claim(worker: "planner", now: 1, leaseSeconds: 30) else { throw TestFailure("plan not claimed") }
        #expect(job.split(plan, now: 2) == .applied)
    }

    @Test func aChunkedCompositionThatNeverFailedUsedOneAttemptAndHasNoPhaseOnceDone() throws {
        var job = chunked()
        try planned(&job)
        #expect(JobReport.detail(job).contains("attempts:     1 of 5"), "\(JobReport.detail(job))")
        guard case .start(let join) = job.claim(worker: "joiner", now: 3, leaseSeconds: 30) else { Issue.record(); return }
        // The plan's lease and the join's stay apart: a late write of the plan is fenced.
        #expect(join.attempt == 2 && job.succeed(JobLease(jobID: "c", attempt: 1, worker: "planner"), now: 4) == .fenced)
        #expect(JobReport.table([job]).contains("1/5"), "\(JobReport.table([job]))")
        #expect(job.succeed(join, now: 5) == .applied)
        #expect(job.attemptsUsed == 1)
        #expect(JobReport.detail(job).contains("attempts:     1 of 5"), "\(JobReport.detail(job))")
        let summary = try #require(JobReport.chunkSummary(job, chunks: []))
        #expect(!summary.contains("phase"), "\(summary)")
    }

    /// The join has as many attempts as a whole composition: its plan does not use one of them up.
    @Test func aJoinThatFailsOnceIsRetriedUnderTwoAttempts() throws {
        var job = chunked(maxAttempts: 2)
        try planned(&job)
        guard case .start(let first) = job.claim(worker: "joiner", now: 3, leaseSeconds: 30) else { Issue.record(); return }
        guard case .retry = job.fail(first, error: "join crashed", retryable: true, now: 4, policy: policy, random: 0) else {
            Issue.record("dead after one failed attempt of two: \(job.state)"); return
        }
        #expect(JobReport.detail(job).contains("attempts:     1 of 2"))
        #expect(job.retryNow(now: 5) == .requeued)
        guard case .start(let second) = job.claim(worker: "joiner", now: 6, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.fail(second, error: "join crashed again", retryable: true, now: 7, policy: policy, random: 0) == .dead)
        #expect(job.attemptsUsed == 2)
        #expect(try #require(JobReport.chunkSummary(job, chunks: [])).hasPrefix("phase:        join (when it ended)"))
    }

    /// A followed composition has no percent while its session is recorded: `jobs show` gives its
    /// positions and the lag while it runs, and nothing of them once it has ended.
    @Test func aFollowedCompositionShowsItsPositionsWhileItRuns() {
        var options = ComposeOptions(chunkSeconds: 4)
        options.follow = true
        var job = Job(id: "f", spec: JobSpec(capture: "/c", out: "/o", options: options), maxAttempts: 3, now: 0)
        guard case .start(let lease) = job.claim(worker: "w", now: 1, leaseSeconds: 30) else { Issue.record(); return }
        #expect(!JobReport.detail(job).contains("following:"))
        #expect(job.heartbeat(lease, now: 2, leaseSeconds: 30, progress: nil,
                              followPosition: FollowPosition(recordedSeconds: 12.4, composedSeconds: 8)) == .keepRunning)
        #expect(JobReport.detail(job).contains("following:    recorded 12.4 s, composed 8.0 s (4.4 s behind)"), "\(JobReport.detail(job))")
        #expect(job.succeed(lease, now: 3) == .applied)
        #expect(!JobReport.detail(job).contains("following:"), "\(JobReport.detail(job))")
    }

    @Test func aJobReleasedAtShutdownShowsNoStaleProgress() {
        var job = Job(id: "w", spec: JobSpec(capture: "/c", out: "/o"), maxAttempts: 3, now: 0)
        guard case .start(let lease) = job.claim(worker: "w", now: 1, leaseSeconds: 30) else { Issue.record(); return }
        #expect(job.heartbeat(lease, now: 2, leaseSeconds: 30, progress: 53.7) == .keepRunning)
        #expect(job.release(lease, now: 3) == .applied)
        #expect(job.state == .queued && job.attempt == 0 && job.progress == 0)
        let line = JobReport.table([job]).split(separator: "\n").last.map(String.init) ?? ""
        #expect(line.contains("queued") && line.contains("0/3") && line.contains("0.0%") && !line.contains("53.7"), "\(line)")
        #expect(JobReport.detail(job).contains("progress:     0.0 %"))
    }
}
