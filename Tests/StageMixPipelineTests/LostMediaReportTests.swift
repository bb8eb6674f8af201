import Foundation
import Testing
import StageMixTestSupport

/// Lost media told as a new user needs it (issue 32, item 7): each missing file named once, and only
/// what the composition needed reported as lost.
@Suite("lost media, told once")
struct LostMediaReportTests {
    typealias CLI = CommandLineTests

    @Test func aMissingFileIsNamedOnceAndALayerNobodyReadsIsNoLoss() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("panel")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Samples/panel"), to: capture)
        // Maya's microphone is needed whenever she is on stage; Omar's medium layer is read by no tile at 640x360.
        try FileManager.default.removeItem(at: capture.appendingPathComponent("media/TR_maya_mic.ogg"))
        try FileManager.default.removeItem(at: capture.appendingPathComponent("media/TR_omar_cam-medium.webm"))
        let out = root.appendingPathComponent("out")
        let run = try CLI.run(["compose", capture.path, "--out", out.path, "--resolution", "640x360", "--preset", "ultrafast"])
        #expect(run.status == 0, "\(run.stderr)")

        let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(warnings.filter { $0.contains("TR_maya_mic.ogg") }.count == 1, "\(warnings)")
        let line = try #require(warnings.first { $0.contains("TR_maya_mic.ogg") })
        #expect(line.components(separatedBy: "TR_maya_mic.ogg").count == 2, "the file is named once in its line: \(line)")
        #expect(line.components(separatedBy: "$.tracks[").count == 2, "and its JSON path once: \(line)")
        #expect(line.contains("lost where shown (missing): 0.000-"), "with the stretches it was needed for: \(line)")
        #expect(!run.stderr.contains("TR_omar_cam-medium"), "\(run.stderr)")

        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("report.json"))) as? [String: Any])
        let lost = try #require(report["lostMedia"] as? [String: String])
        #expect(lost.keys.sorted() == ["media/TR_maya_mic.ogg"], "\(lost)")
        #expect(lost["media/TR_maya_mic.ogg"]?.contains("no file there") == true, "\(lost)")
        let losses = report["losses"] as? [[String: Any]] ?? []
        #expect(!losses.isEmpty && losses.allSatisfy { $0["trackId"] as? String == "TR_maya_mic" }, "\(losses)")
    }
}
