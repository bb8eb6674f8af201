import Testing
import StageMixLayout
@testable import StageMixCapture
@testable import StageMixPlan

/// Planning and billing at the limits: the work is what the events call for, never what a claimed
/// duration or count would, and no arithmetic overflows.
@Suite struct PlanScaleTests {
    /// Maya and Omar on stage for the longest session allowed; Omar's camera is muted and unmuted every
    /// 30 s, and Maya's stream pauses for 10 s of every 5 minutes (a grace deadline each time).
    @Test func aFullDayPlansAndBillsInProportionToItsEvents() throws {
        var c = TestCapture(); c.person("maya"); c.person("omar")
        c.onStage("maya", at: 0); c.onStage("omar", at: 0)
        let toggles = CaptureLimits.maxSessionMs / 30_000
        for i in 1..<toggles {
            c.at(i * 30_000, i % 2 == 1 ? .trackMuted(trackId: "omar-cam") : .trackUnmuted(trackId: "omar-cam"))
        }
        let pauses = CaptureLimits.maxSessionMs / 300_000
        for i in 0..<pauses {
            c.at(i * 300_000 + 100_000, .streamState(trackId: "maya-cam", state: .paused))
            c.at(i * 300_000 + 110_000, .streamState(trackId: "maya-cam", state: .active))
        }
        let capture = c.capture(endingAt: CaptureLimits.maxSessionMs)
        let doc = try PlanDocument(capture: capture, layout: halvesLayout(fit: .cover))

        // Every toggle and every pause, grace deadline and resumption starts a new stretch; nothing else does.
        let stretches = toggles + 3 * pauses
        #expect(doc.timeline.segments.count == stretches)
        #expect(doc.plan.intervals.count == stretches)
        #expect(doc.billing.spans.count == stretches)
        #expect(doc.billing.minutes.count == 1_440)
        // Each minute holds an unmuted half minute with both cameras flowing at 1280x720.
        #expect(doc.billing.minutesPerTier.first { $0.tier == "Full HD" }?.minutes == 1_440)
        #expect(doc.billing.tracks.first { $0.trackId == "maya-cam" }?.subscribedSeconds == 86_400)
    }

    /// Ten thousand viewers come and go while one host is on stage: every event is cheap, and the stage
    /// (one participant) is all a segment holds.
    @Test func manyParticipantsComingAndGoing() throws {
        var c = TestCapture(); c.person("host")
        c.onStage("host", at: 0)
        for i in 0..<10_000 {
            c.participants.append(Participant(id: "v\(i)", name: "V\(i)"))
            c.at(1_000 + i, .participantJoined(participantId: "v\(i)", mode: .signallingOnly, role: nil))
            c.at(1_000 + i, .pubsub(PubSubMessage(topic: "HOSTREQUESTED", senderId: "host",
                                                  payload: ["receiverId": "v\(i)", "senderId": "host"])))
            c.at(50_000 + i, .participantLeft(participantId: "v\(i)"))
        }
        let capture = c.capture(endingAt: 200_000)
        let doc = try PlanDocument(capture: capture, layout: halvesLayout(fit: .cover))
        #expect(doc.timeline.segments.count == 1)
        #expect(doc.timeline.invitations.count == 10_000)
        #expect(doc.timeline.invitations.allSatisfy { $0.outcome == .expired && $0.resolvedAtMs == $0.requestedAtMs + 60_000 })
        #expect(doc.billing.minutes.count == 4)
    }

    /// A plan built in code, past the limits the reader enforces, is refused instead of billed per minute.
    @Test func billingRefusesADurationBeyondTheLimit() throws {
        var c = TestCapture(); c.person("maya")
        c.onStage("maya", at: 0)
        let capture = c.capture(endingAt: 9_007_199_254_740_993)
        let plan = CompositionPlan(capture: capture, timeline: try StageTimeline(capture: capture), layout: halvesLayout(fit: .cover))
        #expect(plan.intervals.count == 1)
        #expect(throws: BillingError.self) { try BillingReport(plan: plan) }
        var wide = BillingTests().scenario()
        wide.canvas = CanvasSize(width: 1 << 40, height: 1 << 40)
        #expect(throws: BillingError.self) { try BillingReport(plan: wide) }
    }

    /// Spans built in code that stray outside the session count only for the minutes inside it.
    @Test func billingClampsSpansToTheSession() throws {
        var plan = BillingTests().scenario()
        plan.intervals[0].startMs = -600_000
        plan.intervals[plan.intervals.count - 1].endMs = 6_000_000
        let report = try BillingReport(plan: plan)
        #expect(report.minutes.map(\.tier) == ["Full HD", "Full HD", "HD"])
    }

    @Test func anEndlessPauseGraceIsTheSessionsLength() {
        var c = TestCapture(); c.person("maya")
        c.onStage("maya", at: 0)
        c.at(1_000, .streamState(trackId: "maya-cam", state: .paused))
        let timeline = c.timeline(endingAt: 10_000, graceMs: Int.max)
        #expect(timeline.pauseGraceMs == CaptureLimits.maxSessionMs)
        #expect(timeline.subscribed(at: 9_999)["maya-cam"] == .pausedHolding)
    }
}
