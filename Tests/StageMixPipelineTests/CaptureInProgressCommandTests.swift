import Foundation
import Testing
import StageMixSynth
import StageMixTestSupport

/// A capture still being recorded (the contract's "A capture in progress"), as each command meets it:
/// `plan` plans what is known so far and says so; every other command refuses it with exit 65,
/// naming `$.recording` and `compose --follow`, and writes nothing.
@Suite("a capture in progress, command by command", .serialized)
struct CaptureInProgressCommandTests {
    typealias CLI = CommandLineTests

    /// A synthesized capture rewritten as a recorder would have it at 1.2 s: no `session.ended`, and `recording`.
    static func inProgress(in root: URL) throws -> URL {
        let capture = root.appendingPathComponent("capture")
        try CaptureSynthesizer().synthesize(ComposeEndToEndTests.scenario().withDuration(2_000), to: capture)
        let manifest = capture.appendingPathComponent("session.json")
        var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        let events = (document["events"] as? [[String: Any]] ?? []).filter { $0["type"] as? String != "session.ended" }
        document["events"] = events
        document["recording"] = ["completeToMs": 1_200]
        try JSONSerialization.data(withJSONObject: document).write(to: manifest)
        return capture
    }

    @Test func planPlansWhatIsKnownSoFarAndEveryOtherCommandRefuses() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = try Self.inProgress(in: root)

        let plan = try CLI.run(["plan", capture.path, "--json"])
        #expect(plan.status == 0, "\(plan.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let warnings = document["warnings"] as? [String] ?? []
        #expect(warnings.contains { $0.contains("$.recording") && $0.contains("1200") }, "\(warnings)")
        let timeline = document["timeline"] as? [String: Any]
        #expect(timeline?["durationMs"] as? Int == 1_200, "\(timeline ?? [:])")

        let out = root.appendingPathComponent("out")
        for arguments in [["compose", capture.path, "--out", out.path], ["probe", capture.path],
                          ["preview", capture.path, "--at", "0.5", "--output", root.appendingPathComponent("p.png").path]] {
            let refused = try CLI.run(arguments)
            #expect(refused.status == 65, "\(arguments[0]): \(refused.stderr)")
            #expect(refused.stderr.contains("$.recording") && refused.stderr.contains("--follow"), "\(arguments[0]): \(refused.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: out.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix(".") }.isEmpty)
    }
}
