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

    @Test func exitStatusesAndWhatTheWorkerMakesOfThem() {
        #expect([ComposeChild.ExitStatus.usageError, .badInput, .internalFailure, .interrupted, .terminated].map(\.rawValue)
                == [64, 65, 70, 130, 143])
        #expect(ComposeChild.Failure(exitStatus: .success) == nil)
        #expect(ComposeChild.Failure(exitStatus: .usageError) == .usageError)
        #expect(ComposeChild.Failure(exitStatus: .badInput) == .badInput)
        for status in [ComposeChild.ExitStatus.internalFailure, .interrupted, .terminated, ComposeChild.ExitStatus(rawValue: 1)] {
            #expect(ComposeChild.Failure(exitStatus: status) == .composeFailed)
        }
        #expect(ComposeChild.Failure.allCases.filter(\.isRetryable) == [.composeFailed])
        #expect(ComposeChild.Failure(error: "bad input (exit status 65): no session.json") == .badInput)
        #expect(ComposeChild.Failure(error: "cannot start compose: ENOENT") == nil)
    }
}
