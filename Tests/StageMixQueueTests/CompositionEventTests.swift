import Testing
@testable import StageMixQueue

/// Which webhook events a change of a job causes: one progress event per 10 % step crossed, in order.
struct CompositionEventTests {
    private func running(_ progress: Double) -> Job {
        var job = Job(id: "j", spec: JobSpec(capture: "/c", out: "/o"), maxAttempts: 3, now: 0)
        _ = job.claim(worker: "w", now: 0, leaseSeconds: 30)
        job.progress = progress
        return job
    }

    private func steps(_ from: Double, _ to: Double) -> [Int?] {
        CompositionEvent.caused(from: running(from), to: running(to)).map { occurrence in
            #expect(occurrence.event == .progress)
            return occurrence.step
        }
    }

    @Test func everyStepCrossedOnceInOrder() {
        #expect(steps(20, 50) == [30, 40, 50])
        #expect(steps(0, 9.9) == [])
        #expect(steps(9.9, 10) == [10])
        #expect(steps(12, 19) == [])
        // The 100 is the completed event's; a jump to the end tells every step up to 90.
        #expect(steps(5, 100) == [10, 20, 30, 40, 50, 60, 70, 80, 90])
        #expect(steps(95, 100) == [])
        #expect(steps(50, 30) == [])
    }

    @Test func aStateChangeTellsItsOwnEventOnly() {
        var done = running(100)
        done.state = .succeeded
        #expect(CompositionEvent.caused(from: running(40), to: done) == [.init(event: .completed, step: nil)])
        var queued = running(0)
        queued.state = .queued
        #expect(CompositionEvent.caused(from: queued, to: running(0)) == [.init(event: .started, step: nil)])
    }
}
