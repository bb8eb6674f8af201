import Testing
@testable import StageMixQueue

/// The time left a composing composition shows: from its progress rate, falling or held while progress stands still.
struct TimeLeftEstimateTests {
    @Test func theRestAtTheRateSoFar() {
        // 25 % in 10 s: 75 % more takes 30 s.
        #expect(TimeLeftEstimate.seconds(progress: 25, startedAt: 100, progressAt: 110, now: 110) == 30)
        #expect(TimeLeftEstimate.seconds(progress: 50, startedAt: 100, progressAt: 120, now: 120) == 20)
    }

    @Test func standingStillItCountsDownAndNeverRises() throws {
        // The job: progress held at 38.2 while time went on; the old formula rose from 11 to 14.
        var last = Double.infinity
        for now in stride(from: 107.0, through: 130, by: 0.5) {
            let left = try #require(TimeLeftEstimate.seconds(progress: 38.2, startedAt: 100, progressAt: 107, now: now))
            #expect(left <= last && left >= 0, "at \(now): \(left) after \(last)")
            last = left
        }
        #expect(TimeLeftEstimate.seconds(progress: 38.2, startedAt: 100, progressAt: 107, now: 107) == 11)
        #expect(last == 0)
    }

    @Test func itRisesOnlyWhenProgressMovesMoreSlowly() {
        let before = TimeLeftEstimate.seconds(progress: 40, startedAt: 0, progressAt: 8, now: 9)
        // Progress moved on, but the average rate fell: a new reading, higher.
        let after = TimeLeftEstimate.seconds(progress: 41, startedAt: 0, progressAt: 20, now: 20)
        #expect(before == 11 && after.map { $0 > 11 } == true)
    }

    @Test func nothingBeforeThereIsARateOrOnceDone() {
        #expect(TimeLeftEstimate.seconds(progress: 0.5, startedAt: 0, progressAt: 5, now: 5) == nil)
        #expect(TimeLeftEstimate.seconds(progress: 100, startedAt: 0, progressAt: 5, now: 5) == nil)
        #expect(TimeLeftEstimate.seconds(progress: 30, startedAt: 5, progressAt: 5, now: 6) == nil)
    }
}
