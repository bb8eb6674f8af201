public import Foundation
public import StageMixLayout
public import StageMixCapture

/// What `stagemix plan --json` prints and compose writes beside its output: timeline, plan and billing together.
public struct PlanDocument: Sendable, Codable {
    public var timeline: StageTimeline
    public var plan: CompositionPlan
    public var billing: BillingReport
    public var warnings: [String]

    public init(timeline: StageTimeline, plan: CompositionPlan, billing: BillingReport, warnings: [String]) {
        self.timeline = timeline; self.plan = plan; self.billing = billing; self.warnings = warnings
    }

    /// Stable, human-diffable JSON.
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(value)
    }
}

extension PlanDocument {
    /// Timeline, plan and billing of a capture under a layout: everything `stagemix plan` shows.
    /// `speakers` works out the active speaker from the edited timeline (an audio-only pass, which
    /// StageMixPipeline's `SpeakerAnalysis` does); without it a speaker layout keeps the pinned order.
    public init(capture: Capture, layout: Layout, pauseGraceMs: Int = StageTimeline.defaultPauseGraceMs,
                tiers: BillingTiers = .agora, prices: PriceTable? = nil, edits: SessionEdits = .none,
                speakers: ((StageTimeline) throws -> SpeakerTimeline)? = nil) throws {
        // A Twilio layout takes out the gaps without media as Twilio's `Trim` does.
        let edits = try layout.twilio.map { twilio throws(CaptureError) in try TwilioTrim.edits(edits, capture: capture, twilio: twilio, pauseGraceMs: pauseGraceMs) } ?? edits
        let timeline = try StageTimeline(capture: capture, pauseGraceMs: pauseGraceMs, edits: edits)
        // The speaker pass reads the microphones: only for a layout that follows the speaker.
        let turns = layout.focus == .speaker ? try speakers?(timeline) : nil
        let plan = CompositionPlan(capture: capture, timeline: timeline, layout: layout, speakers: turns)
        let billing = try BillingReport(plan: plan, tiers: tiers, prices: prices)
        self.init(timeline: timeline, plan: plan, billing: billing,
                  warnings: capture.warnings.map(\.description)
                    // A Twilio layout shows what its regions name, shares or not, as Twilio does.
                    + (layout.twilio == nil ? UnshownScreenShares.warnings(timeline: timeline, plan: plan, layout: layout)
                        + CrowdedStage.warnings(timeline: timeline, plan: plan, layout: layout) : []))
    }
}
