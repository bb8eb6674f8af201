import Foundation
import Testing
@testable import StageMixCapture
@testable import StageMixPlan
import StageMixLayout
@testable import StageMixReportPage
import StageMixTestSupport

/// The page of an edited session: the lanes count session time and say so, what the edits took out is
/// marked on every lane, and marks that timeline.json keeps on the output's clock (invitations) are
/// drawn where the session had them, naming people, with the video's time beside.
@Suite("report.html after edits")
struct ReportPageEditsTests {
    /// The sample panel with Kai invited at 20 s instead of 11 s, 4 s trimmed from the start and 10-12 s cut.
    func edited() throws -> (Capture, PlanDocument) {
        var capture = try CaptureFolder(Repository.root.appendingPathComponent("Samples/panel")).capture()
        let kai = try #require(capture.events.firstIndex {
            if case .pubsub(let message) = $0.action { return message.topic == "HOSTREQUESTED" && message.payload["receiverId"] == "p-kai" }
            return false
        })
        capture.events[kai].atMs = 20_000
        capture.events = capture.events.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        let edits = SessionEdits(trim: .init(startMs: 4_000), cut: [.init(fromMs: 10_000, toMs: 12_000)])
        let document = try PlanDocument(capture: capture, layout: #require(Layout.builtin(named: "grid")), edits: edits)
        return (capture, document)
    }

    /// 20 s of session is 14 s of video (4 s trimmed and 2 s cut before it): the mark sits at 20 s on the
    /// session's axis, seeks the video to 14 s, and names Kai, not p-kai.
    @Test func anInvitationIsDrawnAtItsSessionTimeAndSeeksToItsVideoTime() throws {
        let (capture, document) = try edited()
        #expect(document.timeline.invitations.contains { $0.receiverId == "p-kai" && $0.requestedAtMs == 14_000 }, "timeline.json counts output time")
        let lanes = TimelineLanes(document: document, capture: capture)
        let invited = try #require(lanes.markers.first { $0.kind == .requested && $0.label.contains("Kai") })
        #expect(invited.atMs == 20_000 && invited.outputMs == 14_000, "\(invited)")
        let html = ReportPage(document: document, capture: capture).html()
        #expect(html.contains("Maya invited Kai on stage at 0:20.0 (0:14.0 in the video)"))
        #expect(html.contains("data-marker=\"requested\" data-at-ms=\"20000\" data-out-ms=\"14000\""))
        #expect(!html.contains("p-kai on stage") && !html.contains("p-lena declined") && !html.contains("p-kai expired"), "names, not ids")
        #expect(html.contains("Lena declined Maya&#39;s invitation"))
    }

    /// The trimmed start and the cut are hatched on every lane, audience included, with their words,
    /// and the axis says it counts session time.
    @Test func whatTheEditsTookOutIsMarkedOnEveryLane() throws {
        let (capture, document) = try edited()
        let lanes = TimelineLanes(document: document, capture: capture)
        #expect(lanes.removed.map { "\($0.kind.rawValue) \($0.fromMs)-\($0.toMs) resumes \($0.resumesAtMs)" }
            == ["trimmed 0-4000 resumes 0", "cut 10000-12000 resumes 6000"])
        let html = ReportPage(document: document, capture: capture).html()
        let laneCount = lanes.lanes.count + 1
        #expect(html.components(separatedBy: "data-removed=\"trimmed\" data-from-ms=\"0\" data-to-ms=\"4000\"").count - 1 == laneCount)
        #expect(html.components(separatedBy: "data-removed=\"cut\" data-from-ms=\"10000\" data-to-ms=\"12000\"").count - 1 == laneCount)
        #expect(html.contains("Cut by edits, 0:10.0 to 0:12.0: not in the video, which goes on at 0:06.0"))
        #expect(html.contains("<div class=\"name\">session time</div>"))
        #expect(html.contains("Edits took out 0:00.0 to 0:04.0 (trimmed), 0:10.0 to 0:12.0 (cut)"))
        // Unedited, nothing is marked removed.
        let plain = try PlanDocument(capture: capture, layout: #require(Layout.builtin(named: "grid")))
        #expect(!ReportPage(document: plain, capture: capture).html().contains("data-removed="))
    }
}
