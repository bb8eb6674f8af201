import Foundation
import StageMixJSON
import Testing
@testable import StageMixCapture

/// The contract's "A capture in progress": `session.json` without `session.ended`, with
/// `"recording": {"completeToMs": N}`. Refused by default (naming `$.recording` and `--follow`), read
/// as known so far on request, and every rule of a finished capture still checked.
@Suite struct CaptureInProgressTests {
    /// The fixture as a recorder would hand it over at `completeToMs`: no `session.ended`, and the
    /// events from `cut` on not written yet.
    static func inProgress(completeToMs: Any, keepingEventsBefore cut: Int = 10_000) -> CaptureFixture {
        var fixture = CaptureFixture.valid
        fixture.events = fixture.events.filter { $0["type"] as? String != "session.ended" && ($0["atMs"] as? Int ?? 0) < cut }
        fixture.document["recording"] = ["completeToMs": completeToMs]
        return fixture
    }

    @Test func aCaptureInProgressIsRefusedNamingRecordingAndFollow() {
        let problems = Self.inProgress(completeToMs: 8_000).problems()
        #expect(problems.count == 1)
        #expect(problems.first?.path == "$.recording", "\(problems)")
        #expect(problems.first?.description.contains("with --follow") == true, "\(problems)")
        #expect(problems.first?.description.contains("8000 ms") == true, "\(problems)")
    }

    @Test func readAsKnownSoFarItEndsAtCompleteToMsWithAWarning() throws {
        // Events at or after completeToMs are checked but left out: others may still come before them.
        let fixture = Self.inProgress(completeToMs: 4_000)
        let capture = try CaptureReader.parse(fixture.data, directory: CaptureFixture.nowhere, inProgress: .knownSoFar)
        #expect(capture.completeToMs == 4_000)
        #expect(capture.durationMs == 4_000)
        #expect(capture.events.last?.action == .sessionEnded)
        #expect(capture.events.dropLast().allSatisfy { $0.atMs < 4_000 })
        #expect(capture.events.count < fixture.events.count + 1)
        #expect(capture.warnings.contains { $0.path == "$.recording" && $0.description.contains("4000") })
    }

    @Test func aFinishedCaptureReadsTheSameWhateverThePolicy() throws {
        let fixture = CaptureFixture.valid
        let refusing = try fixture.parse()
        let lenient = try CaptureReader.parse(fixture.data, directory: CaptureFixture.nowhere, inProgress: .knownSoFar)
        #expect(refusing == lenient)
        #expect(refusing.completeToMs == nil)
    }

    @Test func brokenRecordingsAreNamedByPath() {
        // Both a recording member and session.ended: the last version must drop `recording`.
        var both = CaptureFixture.valid
        both.document["recording"] = ["completeToMs": 1_000]
        #expect(both.problems().map(\.path) == ["$.recording"])
        #expect(Self.inProgress(completeToMs: "soon").problems().map(\.path) == ["$.recording.completeToMs"])
        #expect(Self.inProgress(completeToMs: -1).problems().map(\.path) == ["$.recording.completeToMs"])
        #expect(Self.inProgress(completeToMs: 1.5).problems().map(\.path) == ["$.recording.completeToMs"])
        var notAnObject = Self.inProgress(completeToMs: 0)
        notAnObject.document["recording"] = 5
        #expect(notAnObject.problems().map(\.path) == ["$.recording"])
        // Without recording and without session.ended: the finished capture's rule, as before.
        var neither = Self.inProgress(completeToMs: 0)
        neither.document["recording"] = nil
        #expect(neither.problems().map(\.path) == ["$.events"])
        // The other rules hold in progress too: an event about nobody is named as in a finished capture.
        var stranger = Self.inProgress(completeToMs: 4_000)
        stranger.events.append(["atMs": 5_000, "type": "participant.pinned", "participantId": "p-nobody"])
        #expect(stranger.problems().map(\.path).contains("$.events[\(stranger.events.count - 1)].participantId"))
    }
}
