import Foundation
import Testing
@testable import StageMixCapture
@testable import StageMixPlan
import StageMixLayout
@testable import StageMixReportPage
import StageMixTestSupport

/// What the page says about its video: it offers to play only when there is one, says it cannot be
/// played only on a real error, and keeps every mark whole inside its lane.
@Suite("report.html player and marks")
struct ReportPagePlayerTests {
    func panel() throws -> (Capture, PlanDocument) {
        let capture = try CaptureFolder(Repository.root.appendingPathComponent("Samples/panel")).capture()
        return (capture, try PlanDocument(capture: capture, layout: #require(Layout.builtin(named: "grid"))))
    }

    func run(mp4: Bool) -> ComposedRun {
        ComposedRun(composedAt: Date(), composeSeconds: 1, cpuSeconds: [], losses: [], warnings: [], mp4: mp4, thumbnails: [], renditions: [])
    }

    /// During resource selection a video that plays has no source yet (network state 3): no reason to
    /// say it cannot be played. Only its `error` event (or an error already there) says so.
    @Test func unplayableIsSaidOnlyOnAnError() {
        let script = ReportPageStyle.script
        #expect(!script.contains("networkState"))
        #expect(script.contains("video.addEventListener('error',unplayable)"))
    }

    /// `plan --html` and a composition without `--mp4` have no video: they offer no click to play.
    @Test func aPageWithoutAVideoDoesNotOfferToPlayIt() throws {
        let (capture, document) = try panel()
        for page in [ReportPage(document: document, capture: capture), ReportPage(document: document, run: run(mp4: false), capture: capture)] {
            let html = page.html()
            #expect(!html.contains("<video") && !html.contains("to play the video"))
            #expect(html.contains("Hover or focus any span or mark for its words and times"))
        }
        let withVideo = ReportPage(document: document, run: run(mp4: true), capture: capture).html()
        #expect(withVideo.contains("<video") && withVideo.contains("Click or press Enter on any span or mark to play the video from there"))
    }

    /// Maya's pin at 0:00 and Kai's invitation expiring at the session's end are drawn whole inside the lane.
    @Test func marksAtTheEdgesAreDrawnWhole() throws {
        let (capture, document) = try panel()
        let html = ReportPage(document: document, capture: capture).html()
        let circles = html.matches(of: #/<circle cx="([\d.]+)" cy="12" r="4" class="m-pin" data-marker="pin" data-at-ms="(\d+)"/#)
        #expect(circles.contains { $0.2 == "0" })
        for circle in circles { #expect(Double(circle.1)! - 4 >= 0 && Double(circle.1)! + 4 <= 1000, "pin at \(circle.1)") }
        let triangles = html.matches(of: #/<path d="M[\d.]+ 3 L([\d.]+) 21 L([\d.]+) 21 Z" class="m-(\w+)" data-marker="\w+" data-at-ms="(\d+)"/#)
        #expect(triangles.contains { $0.3 == "expired" && $0.4 == "30000" })
        for triangle in triangles { #expect(Double(triangle.2)! >= 0 && Double(triangle.1)! <= 1000, "\(triangle.3) at \(triangle.4)") }
    }
}
