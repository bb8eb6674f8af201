import Testing
import StageMixOptions

/// The contract between `stagemix compose` and the worker: what one side writes, the other reads.
@Suite("Compose child contract")
struct ComposeChildTests {
    @Test func aProgressLineReadsBackAsWritten() throws {
        let line = ComposeChild.ProgressLine(percent: 12.5, speed: 3.1, etaSeconds: 20)
        #expect(line.text == #"{"event":"progress","percent":12.5,"speed":3.10,"etaSeconds":20.0}"#)
        #expect(ComposeChild.ProgressLine(parsing: line.text) == line)
    }

    @Test func onlyProgressEventsAreProgress() {
        #expect(ComposeChild.ProgressLine(parsing: #"{"event":"progress","percent":33,"speed":1.0,"etaSeconds":1}"#)?.percent == 33)
        #expect(ComposeChild.ProgressLine(parsing: #"{"event":"progress","percent":7.5}"#)?.percent == 7.5)
        #expect(ComposeChild.ProgressLine(parsing: #"{"event":"waiting"}"#) == nil)
        #expect(ComposeChild.ProgressLine(parsing: #"{"event":"progress"}"#) == nil)
        #expect(ComposeChild.ProgressLine(parsing: "warning: no font for names") == nil)
    }

    @Test func aFollowLineReadsBackAsWritten() throws {
        let line = ComposeChild.FollowLine(recordedMs: 12_345, composedMs: 8_000)
        #expect(line.text == #"{"event":"following","recordedSeconds":12.345,"composedSeconds":8.000}"#)
        #expect(ComposeChild.FollowLine(parsing: line.text) == line)
        #expect(line.recordedSeconds == 12.345 && line.composedSeconds == 8)
    }

    @Test func onlyFollowingEventsWithTwoPositionsAreFollowing() {
        #expect(ComposeChild.FollowLine(parsing: #"{"event":"following","recordedSeconds":3,"composedSeconds":0}"#)
                == ComposeChild.FollowLine(recordedSeconds: 3, composedSeconds: 0))
        #expect(ComposeChild.FollowLine(parsing: #"{"event":"following","recordedSeconds":3}"#) == nil)
        #expect(ComposeChild.FollowLine(parsing: #"{"event":"following","recordedSeconds":-1,"composedSeconds":0}"#) == nil)
        #expect(ComposeChild.FollowLine(parsing: #"{"event":"progress","percent":33,"speed":1.0,"etaSeconds":1}"#) == nil)
        #expect(ComposeChild.FollowLine(parsing: "recorded 12.0 s, composed 8.0 s") == nil)
        // Neither line is taken for the other.
        #expect(ComposeChild.ProgressLine(parsing: ComposeChild.FollowLine(recordedMs: 1_000, composedMs: 0).text) == nil)
    }

    @Test func exitStatusesAndWhatTheWorkerMakesOfThem() {
        #expect([ComposeChild.ExitStatus.usageError, .badInput, .internalFailure, .noRoom, .noSpaceLeft, .interrupted, .terminated].map(\.rawValue)
                == [64, 65, 70, 73, 74, 130, 143])
        #expect(ComposeChild.Failure(exitStatus: .success) == nil)
        #expect(ComposeChild.Failure(exitStatus: .usageError) == .usageError)
        #expect(ComposeChild.Failure(exitStatus: .badInput) == .badInput)
        for status in [ComposeChild.ExitStatus.internalFailure, .interrupted, .terminated, ComposeChild.ExitStatus(rawValue: 1)] {
            #expect(ComposeChild.Failure(exitStatus: status) == .composeFailed)
        }
        #expect(ComposeChild.Failure(exitStatus: .noSpaceLeft) == .noSpaceLeft)
        #expect(ComposeChild.Failure(exitStatus: .noRoom) == .notEnoughSpace)
        #expect(ComposeChild.Failure.allCases.filter(\.isRetryable) == [.noSpaceLeft, .notEnoughSpace, .composeFailed])
        #expect(ComposeChild.Failure.allCases.filter(\.isFullDisk) == [.noSpaceLeft, .notEnoughSpace])
        // Compose's own line for a full disk is the job's error, and is known by its first words.
        #expect(ComposeChild.Failure(error: "no space left on device: cannot write /srv/.o.stagemix-1/hls/segment_00002.ts") == .noSpaceLeft)
        #expect(ComposeChild.Failure(error: "not enough space on device for the output: about 16 MB needed, 0.3 MB free in /srv") == .notEnoughSpace)
        #expect(ComposeChild.Failure(error: "bad input (exit status 65): no session.json") == .badInput)
        #expect(ComposeChild.Failure(error: "cannot start compose: ENOENT") == nil)
    }
}
