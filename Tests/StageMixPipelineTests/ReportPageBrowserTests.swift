import Foundation
import Testing
import StageMixTestSupport

/// `report.html` opened in a real browser (Debian's headless Chromium, every host name unresolvable):
/// the spans read back from the drawing are `timeline.json`'s, the billing table is `billing.json`'s,
/// lost media is marked, a name that is markup shows as text, the console stays empty, and the page
/// is not blank at 1280 and at 375 pixels wide.
@Suite("report.html in a browser", .serialized, .enabled(if: HeadlessChromium.isInstalled))
struct ReportPageBrowserTests {
    typealias CLI = CommandLineTests
    static let hostile = "<img src=x onerror=alert(1)>"

    /// The sample panel with Maya named as markup, the session id closing a script, and Omar's microphone file gone.
    static func composed(in root: URL) throws -> URL {
        let capture = root.appendingPathComponent("panel")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("Samples/panel"), to: capture)
        let manifest = capture.appendingPathComponent("session.json")
        var text = try String(contentsOf: manifest, encoding: .utf8)
        text = text.replacingOccurrences(of: #""name" : "Maya""#, with: #""name" : "\#(hostile.replacingOccurrences(of: "\"", with: "\\\""))""#)
        text = text.replacingOccurrences(of: #""sessionId" : "ls-synth-panel""#, with: #""sessionId" : "panel</script><b>x</b>""#)
        try text.write(to: manifest, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(at: capture.appendingPathComponent("media/TR_omar_mic.ogg"))
        let out = root.appendingPathComponent("out")
        let composed = try CLI.run(["compose", capture.path, "--out", out.path, "--preset", "ultrafast", "--resolution", "320x180",
                                    "--fps", "10", "--mp4", "--thumbnails", "10"])
        #expect(composed.status == 0, "\(composed.stderr)")
        return out
    }

    /// `(participant, kind, from, to)` of every element carrying the span attributes.
    static func spans(in dom: String) -> [(participant: String, kind: String, from: Int, to: Int)] {
        let pattern = #/data-participant="([^"]*)" data-kind="([a-z]+)" data-from-ms="(\d+)" data-to-ms="(\d+)"/#
        return dom.matches(of: pattern).map { (String($0.1), String($0.2), Int($0.3)!, Int($0.4)!) }
    }

    @Test func theDrawingReadsBackAsTheReportsSayAndNamesStayText() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = try Self.composed(in: root)
        let page = out.appendingPathComponent("report.html")
        let run = try HeadlessChromium.dumpDOM(page)
        #expect(run.console.isEmpty, "the console: \(run.console)")
        let dom = run.output

        // On stage: for each participant, the stretches timeline.json has them on stage, joined where they touch.
        let timeline = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("timeline.json"))) as? [String: Any])
        var expected: [String: [[Int]]] = [:]
        for segment in timeline["segments"] as? [[String: Any]] ?? [] {
            let (start, end) = (segment["startMs"] as? Int ?? 0, segment["endMs"] as? Int ?? 0)
            for person in segment["onStage"] as? [[String: Any]] ?? [] {
                let id = person["participantId"] as? String ?? ""
                if let last = expected[id]?.last, last[1] == start { expected[id]![expected[id]!.count - 1][1] = end } else { expected[id, default: []].append([start, end]) }
            }
        }
        let drawn = Self.spans(in: dom)
        var onStage: [String: [[Int]]] = [:]
        for span in drawn where span.kind == "onstage" { onStage[span.participant, default: []].append([span.from, span.to]) }
        #expect(!expected.isEmpty && onStage == expected, "drawn \(onStage), timeline \(expected)")
        // Omar's microphone file is gone: lost media is marked on his lane.
        #expect(drawn.contains { $0.kind == "lost" && $0.participant == "p-omar" }, "\(drawn.filter { $0.kind == "lost" })")

        // The audience lane: viewers' joins (Lena and Kai never come on stage) and every invitation's outcome.
        #expect(dom.contains("data-marker=\"joined\"") && dom.contains("data-marker=\"accepted\"") && dom.contains("data-marker=\"declined\""))

        // The billing table adds up to billing.json.
        let billing = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("billing.json"))) as? [String: Any])
        let tiers = (billing["minutesPerTier"] as? [[String: Any]] ?? []).map { "\($0["tier"]!)=\($0["minutes"]!)" }
        let rows = dom.matches(of: #/<tr data-tier="([^"]*)"><th scope="row">[^<]*</th><td>(\d+)</td></tr>/#).map { "\($0.1)=\($0.2)" }
        #expect(!tiers.isEmpty && rows == tiers, "\(rows) vs \(tiers)")

        // Markup in a name or a session id is shown as its characters, never made an element.
        #expect(dom.contains("&lt;img src=x onerror=alert(1)&gt;"), "the name as text")
        #expect(!dom.contains("<img src=\"x\"") && !dom.contains("<img src=x") && !dom.contains("<b>x</b>"))
        // The player, its chapters and the thumbnails each seek.
        #expect(dom.contains("<video id=\"video\"") && dom.contains("kind=\"chapters\""))
        #expect(dom.matches(of: #/<button type="button" data-out-ms="\d+"><img/#).count == 3)
    }

    /// With `--mp4` the video plays: loaded again and again, the page never says it cannot (it did in
    /// 3 loads of 4 while the video was still selecting its source). With the MP4 gone, it does.
    @Test func thePageSaysTheVideoCannotBePlayedOnlyWhenItCannot() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = try Self.composed(in: root)
        let page = out.appendingPathComponent("report.html")
        for load in 1...4 {
            let dom = try HeadlessChromium.dumpDOM(page).output
            #expect(dom.contains("<video id=\"video\"") && !dom.contains("id=\"unplayable\""), "load \(load)")
        }
        try FileManager.default.removeItem(at: out.appendingPathComponent("composition.mp4"))
        let dom = try HeadlessChromium.dumpDOM(page).output
        #expect(dom.contains("id=\"unplayable\"") && dom.contains("The video cannot be played from here"))
    }

    @Test func thePageIsDrawnAtADesktopAndAPhoneWidth() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let out = try Self.composed(in: root)
        for (width, height) in [(1280, 1600), (375, 2000)] {
            let png = root.appendingPathComponent("page-\(width).png")
            let run = try HeadlessChromium.screenshot(out.appendingPathComponent("report.html"), width: width, height: height, to: png)
            #expect(run.console.isEmpty, "\(run.console)")
            // Not blank: a 64-pixel-wide grey copy of the screenshot has many levels, not one.
            let raw = root.appendingPathComponent("page-\(width).gray")
            try FFmpegTool.run(["-i", png.path, "-vf", "scale=64:-1", "-f", "rawvideo", "-pix_fmt", "gray", raw.path])
            let levels = Set(try Data(contentsOf: raw))
            #expect(levels.count > 20, "\(width) px: \(levels.count) grey levels")
        }
    }
}
