import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture
import StageMixProbe
import StageMixSynth

/// `stagemix probe` over a damaged microphone: a file that ends early or goes quiet in the middle
/// fails the lobby check instead of passing as ok.
@Suite("Probe over damaged media")
struct ProbeDamageTests {
    @Test func theProbeFlagsAMicrophoneThatEndsEarlyOrHasAGap() throws {
        let scratch = ScratchDirectory("probe")
        defer { scratch.remove() }
        let root = scratch.file("probe")
        let expected = try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario(), to: root)
        let healthy = CaptureProbe().probe(try CaptureReader.read(directory: root))
        #expect(healthy.problems.isEmpty, "\(healthy.problems)")

        let mic = root.appendingPathComponent(try DamagedMediaTests.file(expected, track: "TR_ana_mic"))
        let original = try Data(contentsOf: mic)
        try original.prefix(original.count / 2).write(to: mic)
        let cut = CaptureProbe().probe(try CaptureReader.read(directory: root))
        let entry = try #require(cut.streams.first { $0.trackId == "TR_ana_mic" })
        #expect(entry.truncated == true && !entry.passes, "\(entry)")
        #expect(ProbeTextReport.render(cut).contains("ENDS EARLY"))

        try original.write(to: mic)
        try DamagedMediaTests.shiftAnaMic(root, expected, afterSeconds: 4, by: 5)
        let gapped = CaptureProbe().probe(try CaptureReader.read(directory: root))
        let gapEntry = try #require(gapped.streams.first { $0.trackId == "TR_ana_mic" })
        #expect(gapEntry.gaps?.count == 1 && !gapEntry.passes, "\(gapEntry)")
    }
}
