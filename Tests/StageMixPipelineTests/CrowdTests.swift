import Foundation
import Testing
import StageMixTestSupport
import StageMixSynth

/// A crowded session (issue 36): 1,000 viewers in the room and 50 on stage, each camera with three
/// simulcast layers, under the default 25-tile grid. `plan` and `compose` stay under a gigabyte,
/// compose runs under `ulimit -n 256` holding files only for what is shown (and the microphones it
/// mixes), the report page keeps its bound, and the plan says who the grid left out.
@Suite("A crowd on stage", .serialized)
struct CrowdTests {
    static let gigabyte = 1 << 30

    /// The built-in `crowd` cut to 4 s, its layers small: what is measured is files and memory, not pictures.
    static func scenario() -> Scenario {
        var crowd = Scenario.crowd.withDuration(4_000)
        for p in crowd.participants.indices {
            for t in crowd.participants[p].tracks.indices where crowd.participants[p].tracks[t].source == .camera {
                crowd.participants[p].tracks[t].layers = [ScenarioLayer(quality: .low, width: 64, height: 36),
                                                          ScenarioLayer(quality: .medium, width: 128, height: 72),
                                                          ScenarioLayer(quality: .high, width: 256, height: 144)]
            }
        }
        return crowd
    }

    @Test func planAndComposeStayWithinAGigabyteAndAFileForEachShownLayer() throws {
        let scratch = ScratchDirectory("crowd")
        defer { scratch.remove() }
        let capture = scratch.file("capture")
        try CaptureSynthesizer().synthesize(Self.scenario(), to: capture)
        let layerFiles = try FileManager.default.contentsOfDirectory(atPath: capture.appendingPathComponent("media").path)
        #expect(layerFiles.filter { $0.hasSuffix(".webm") }.count == 150)

        let planRun = scratch.file("plan-run")
        try FileManager.default.createDirectory(at: planRun, withIntermediateDirectories: true)
        let plan = try MeasuredRun.run(CommandLineTests.executable, ["plan", capture.path, "--json"],
                                       timeout: 120, killAboveBytes: 4 * Self.gigabyte, scratch: planRun)
        #expect(plan.ending == .exited(0), "\(plan.stderr)")
        #expect(plan.maxResidentBytes < Self.gigabyte, "plan: \(plan.maxResidentBytes >> 20) MB")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: planRun.appendingPathComponent("stdout"))) as? [String: Any])
        let warnings = try #require(document["warnings"] as? [String])
        let crowded = try #require(warnings.first { $0.contains("cannot show everyone on stage") }, "\(warnings)")
        #expect(crowded.contains(#"region "stage" shows at most 25 tiles (maxRows 5 x maxColumns 5)"#), "\(crowded)")
        #expect(crowded.contains("up to 50 were on stage, 25 shown and 25 left out at the peak (0.0 to 2.0 s)"), "\(crowded)")
        let intervals = try #require((document["plan"] as? [String: Any])?["intervals"] as? [[String: Any]])
        #expect(intervals.allSatisfy { (($0["tiles"] as? [[String: Any]])?.count ?? 0) == 25 })

        // The shell lowers the limit and becomes stagemix, so the limit and the measurements are compose's.
        let composeRun = scratch.file("compose-run")
        try FileManager.default.createDirectory(at: composeRun, withIntermediateDirectories: true)
        let out = scratch.file("out")
        let compose = try MeasuredRun.run(URL(fileURLWithPath: "/bin/sh"),
                                          ["-c", #"ulimit -n 256 && exec "$0" "$@""#, CommandLineTests.executable.path,
                                           "compose", capture.path, "--out", out.path, "--resolution", "640x360", "--fps", "10",
                                           "--preset", "ultrafast"],
                                          timeout: 300, killAboveBytes: 4 * Self.gigabyte, scratch: composeRun)
        #expect(compose.ending == .exited(0), "\(compose.stderr.suffix(2_000))")
        #expect(compose.maxResidentBytes < Self.gigabyte, "compose: \(compose.maxResidentBytes >> 20) MB")
        // 25 shown layers and 50 microphones, with room for the outputs, the program's own files and a
        // layer switch in flight; opening all 150 layers would pass this by far.
        #expect(compose.maxOpenFiles <= 25 + 50 + 40, "compose held \(compose.maxOpenFiles) files at once")

        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        #expect((report["lostMedia"] as? [String: Any] ?? [:]).isEmpty, "\(report["lostMedia"] ?? "")")
        #expect((report["warnings"] as? [String] ?? []).contains(crowded))
        let page = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        #expect(page.utf8.count <= 10 << 20, "\(page.utf8.count) bytes")
        #expect(page.components(separatedBy: "<div class=\"lane\">").count - 1 == 50, "a lane for each of the 50 who were on stage, none for a viewer")
    }
}
