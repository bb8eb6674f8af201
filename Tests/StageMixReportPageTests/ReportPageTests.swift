import Foundation
import Testing
@testable import StageMixCapture
@testable import StageMixPlan
import StageMixLayout
@testable import StageMixReportPage
import StageMixTestSupport

/// The page as text, without a browser: escaping, merging what a pixel cannot show, and the bound on a
/// page for a day-long session with a thousand people on stage.
@Suite("report.html")
struct ReportPageTests {
    func sample() throws -> PlanDocument {
        let capture = try CaptureFolder(Repository.root.appendingPathComponent("Samples/panel")).capture()
        return try PlanDocument(capture: capture, layout: #require(Layout.builtin(named: "grid")))
    }

    @Test func textFromUsersIsEscapedEverywhere() {
        #expect(HTMLText.escape(#"<img src=x onerror="alert(1)">&'"#) == "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;")
        #expect(HTMLText.escape("محمد अनन्या") == "محمد अनन्या")
        #expect(HTMLText.escape("a\u{0}b\u{1b}c\td") == "a\u{FFFD}b\u{FFFD}c\td")
    }

    /// Markup in every field that comes from users or their files stays text.
    @Test func markupInAnyFieldIsShownAsText() throws {
        let hostile = #"<img src=x onerror=alert(1)>"'&"#
        var document = try sample()
        document.timeline.sessionId = hostile
        document.plan.sessionId = hostile
        document.plan.layoutName = hostile
        document.warnings = [hostile]
        for index in document.timeline.segments.indices {
            for person in document.timeline.segments[index].onStage.indices {
                document.timeline.segments[index].onStage[person].name = hostile
                document.timeline.segments[index].onStage[person].participantId = hostile + "\(person)"
            }
        }
        document.billing.currency = hostile
        document.billing.cost = 1
        document.billing.minutesPerTier = document.billing.minutesPerTier.map { .init(tier: hostile, minutes: $0.minutes) }
        let run = ComposedRun(composedAt: Date(), composeSeconds: 1, cpuSeconds: [(hostile, 1)],
                              losses: [.init(trackId: hostile, fromMs: 0, toMs: 10, message: hostile)], warnings: [hostile],
                              mp4: true, thumbnails: [(0, hostile)], renditions: [hostile])
        let html = ReportPage(document: document, run: run).html()
        #expect(!html.contains("<img src=x") && !html.contains("onerror=alert(1)>") && !html.contains("\"'&\""))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"))
    }

    @Test func spansNarrowerThanAPixelMergeButLostMediaNeverDoes() {
        func span(_ kind: PageSpan.Kind, _ from: Int, _ to: Int) -> PageSpan {
            PageSpan(participantId: "p", kind: kind, fromMs: from, toMs: to, outputMs: from, label: "x")
        }
        let merged = ReportPage.merged([span(.muted, 0, 10), span(.muted, 20, 30), span(.muted, 5000, 9000),
                                        span(.lost, 0, 1), span(.lost, 2, 3)], unitMs: 100)
        #expect(merged.filter { $0.kind == .muted }.map { [$0.fromMs, $0.toMs] } == [[0, 30], [5000, 9000]])
        #expect(merged.filter { $0.kind == .lost }.count == 2)
    }

    @Test func speakingTurnsAreDrawnOnTheSpeakersLanes() throws {
        var document = try sample()
        document.plan.speakers = SpeakerTimeline(turns: [.init(fromMs: 6_000, toMs: 9_000, participantId: "p-omar"),
                                                         .init(fromMs: 9_000, toMs: 12_000, participantId: "p-maya")])
        let lanes = TimelineLanes(document: document)
        let speaking = lanes.spans.filter { $0.kind == .speaking }.map { "\($0.participantId) \($0.fromMs)-\($0.toMs)" }
        #expect(speaking == ["p-omar 6000-9000", "p-maya 9000-12000"])
    }

    /// 24 hours, 1,000 people each on stage for an hour in turn (ten at a time), each muting every 20 s
    /// (far narrower than a pixel), 2,000 stretches of lost media: at most 10 MB, every loss marked.
    @Test func aDayWithAThousandPeopleOnStageStaysWithinTenMegabytes() throws {
        var document = try sample()
        let day = 86_400_000, people = 1_000, step = 20_000
        var segments: [StageSegment] = []
        for start in stride(from: 0, to: day, by: step) {
            let onStage = (0..<10).map { slot -> OnStageParticipant in
                let person = (start / 864_000 * 10 + slot) % people
                let muted = (start / step + slot) % 2 == 0
                return OnStageParticipant(participantId: "p\(person)", name: "Person <\(person)>", role: "host", pinnedAtMs: -1, stageOrder: slot,
                                          tracks: [SubscribedTrack(trackId: "cam\(person)", kind: .video, source: .camera, flow: .flowing),
                                                   SubscribedTrack(trackId: "mic\(person)", kind: .audio, source: .microphone, flow: muted ? .muted : .flowing)])
            }
            segments.append(StageSegment(startMs: start, endMs: start + step, onStage: onStage))
        }
        document.timeline.segments = segments
        document.timeline.durationMs = day
        document.plan.intervals = []
        document.billing.spans = stride(from: 0, to: day, by: 60_000).map {
            BillingReport.Span(startMs: $0, endMs: $0 + 60_000, aggregatePixels: 1_000_000 + $0 % 7 * 100_000, tier: "Full HD")
        }
        let losses = (0..<2_000).map { ComposedRun.Loss(trackId: "mic\($0 % people)", fromMs: $0 * 43_000, toMs: $0 * 43_000 + 40, message: "gap") }
        let run = ComposedRun(composedAt: Date(), composeSeconds: 100, cpuSeconds: [("encoders", 90)], losses: losses, warnings: [],
                              mp4: true, thumbnails: [], renditions: [])
        let html = ReportPage(document: document, run: run).html()
        // scripts/bench --report-page opens this page in Chromium and times it.
        if let path = ProcessInfo.processInfo.environment["STAGEMIX_REPORT_PAGE_OUT"] { try Data(html.utf8).write(to: URL(fileURLWithPath: path)) }
        #expect(html.utf8.count <= 10 << 20, "\(html.utf8.count) bytes")
        #expect(html.components(separatedBy: "data-kind=\"lost\"").count - 1 == 2_000)
        #expect(html.components(separatedBy: "<div class=\"lane\">").count - 1 == people)
        #expect(!html.contains("Person <"), "names escaped")
    }

    /// A crowd (issue 36): an hour with 50 on stage under the 25-tile grid, each muting for 20 s every
    /// 5 minutes, and 1,000 viewers each coming and going ten times. Planned from events as compose
    /// plans it: a lane for each of the 50 and none for a viewer, the audience counted per thousandth,
    /// the grid's limit among the warnings, within the page's 10 MB.
    @Test func anHourWithFiftyOnStageAndAThousandViewersComingAndGoingStaysWithinTheBound() throws {
        let hour = 3_600_000
        var participants: [Participant] = [], tracks: [Track] = [], events: [SessionEvent] = []
        for i in 0..<50 {
            let id = "p\(i)"
            participants.append(Participant(id: id, name: "Panelist \(i)"))
            tracks.append(Track(id: "\(id)-cam", participantId: id, kind: .video, source: .camera, layers: [
                TrackLayer(quality: .low, width: 320, height: 180, file: "media/\(id)-cam-low.webm"),
                TrackLayer(quality: .medium, width: 640, height: 360, file: "media/\(id)-cam-medium.webm"),
                TrackLayer(quality: .high, width: 1280, height: 720, file: "media/\(id)-cam-high.webm"),
            ]))
            tracks.append(Track(id: "\(id)-mic", participantId: id, kind: .audio, source: .microphone, file: "media/\(id)-mic.ogg"))
            events += [SessionEvent(atMs: 0, .participantJoined(participantId: id, mode: .sendAndReceive, role: nil)),
                       SessionEvent(atMs: 0, .pinned(participantId: id)),
                       SessionEvent(atMs: 0, .trackPublished(trackId: "\(id)-cam")),
                       SessionEvent(atMs: 0, .trackPublished(trackId: "\(id)-mic"))]
            for at in stride(from: 10_000 + i * 1_000, to: hour - 20_000, by: 300_000) {
                events += [SessionEvent(atMs: at, .trackMuted(trackId: "\(id)-mic")), SessionEvent(atMs: at + 20_000, .trackUnmuted(trackId: "\(id)-mic"))]
            }
        }
        for v in 0..<1_000 {
            participants.append(Participant(id: "v\(v)", name: "Viewer \(v)"))
            for visit in 0..<10 {
                let at = visit * 360_000 + v * 150
                events += [SessionEvent(atMs: at, .participantJoined(participantId: "v\(v)", mode: .signallingOnly, role: nil)),
                           SessionEvent(atMs: at + 180_000, .participantLeft(participantId: "v\(v)"))]
            }
        }
        let capture = Capture(directory: URL(fileURLWithPath: "/nonexistent"), sessionId: "crowd", startedAt: Date(timeIntervalSince1970: 1_795_000_000),
                              roles: nil, participants: participants, tracks: tracks,
                              events: events.sorted { $0.atMs < $1.atMs } + [SessionEvent(atMs: hour, .sessionEnded)])
        let document = try PlanDocument(capture: capture, layout: #require(Layout.builtin(named: "grid")))
        let html = ReportPage(document: document, capture: capture).html()
        #expect(html.utf8.count <= 10 << 20, "\(html.utf8.count) bytes")
        #expect(html.components(separatedBy: "<div class=\"lane\">").count - 1 == 50)
        #expect(!html.contains("Viewer 1"), "viewers are counted, not named")
        let audienceMarks = html.components(separatedBy: " viewers joined").count - 1 + html.components(separatedBy: "a viewer joined").count - 1
        #expect(audienceMarks > 0 && audienceMarks <= 1_000, "\(audienceMarks) marks of joins")
        #expect(html.contains("cannot show everyone on stage"), "the grid's limit is among the page's warnings")
    }
}
