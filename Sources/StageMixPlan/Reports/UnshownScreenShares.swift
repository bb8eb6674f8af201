import StageMixCapture
import StageMixLayout

/// Screen shares on stage that the layout has no place for: a layout without a region that takes
/// `screen_share` sources (or with one whose `when` never holds while they share) leaves them out,
/// and the person who chose it is told so in `plan` and `report.json`, not left to find out from the video.
/// A share left out of a region that takes shares but is full is `CrowdedStage`'s to tell.
enum UnshownScreenShares {
    /// One warning per sharer, naming each stretch (output time) their share was not shown.
    static func warnings(timeline: StageTimeline, plan: CompositionPlan, layout: Layout) -> [String] {
        guard !layout.regions.contains(where: { $0.sources.contains(.screenShare) && $0.when.holds(screenSharePresent: true) }) else {
            return []
        }
        var stretches: [(participant: String, name: String, fromMs: Int, toMs: Int)] = []
        for segment in timeline.segments where segment.endMs > segment.startMs {
            let sharing = segment.onStage.filter { $0.hasTile && $0.track(source: .screenShare) != nil }
            guard !sharing.isEmpty else { continue }
            let shown = Set(plan.intervals.overlapping(from: segment.startMs, to: segment.endMs)
                .flatMap(\.tiles).filter { $0.source == .screenShare }.map(\.participantId))
            for participant in sharing where !shown.contains(participant.participantId) {
                if let last = stretches.last, last.participant == participant.participantId, last.toMs == segment.startMs {
                    stretches[stretches.count - 1].toMs = segment.endMs
                } else {
                    stretches.append((participant.participantId, participant.name, segment.startMs, segment.endMs))
                }
            }
        }
        let byParticipant = Dictionary(grouping: stretches, by: \.participant)
        return byParticipant.keys.sorted().map { id in
            let mine = byParticipant[id]!
            let times = mine.map { String(format: "%.1f to %.1f s", Double($0.fromMs) / 1000, Double($0.toMs) / 1000) }
            return "layout \"\(plan.layoutName)\" has no place for a screen share: \(mine[0].name)'s screen share is not shown "
                + "(\(times.joined(separator: ", "))); use a layout with a screen_share region (every built-in layout has one)"
        }
    }
}
