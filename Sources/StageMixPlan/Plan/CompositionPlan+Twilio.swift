import StageMixLayout
import StageMixCapture

extension CompositionPlan {
    /// The intervals of a Twilio layout: each region's cells over the whole timeline
    /// (``TwilioCellPlanner``), cut where the stage or a cell changes. A video track's media is active
    /// while it is subscribed (published, its publisher on stage); muted, it keeps its cell and shows
    /// the placeholder. Audio is mixed as `AudioSources` and `AudioSourcesExcluded` say.
    static func twilioIntervals(_ twilio: TwilioVideoLayout, timeline: StageTimeline, capture: Capture,
                                tracks: [String: Track], names: TwilioTrackNames) -> [PlanInterval] {
        let regionPlans = twilioRegionPlans(twilio, timeline: timeline, capture: capture, names: names)
        let drawing = regionPlans.enumerated().sorted { ($0.element.region.z, $0.offset) < ($1.element.region.z, $1.offset) }.map(\.element)
        // Every instant a cell changes, ascending, walked once alongside the segments.
        let changes = Set(drawing.flatMap(\.assignments).flatMap { [$0.fromMs, $0.toMs] }).sorted()
        var next = 0
        var intervals: [PlanInterval] = []
        for segment in timeline.segments {
            while next < changes.count, changes[next] <= segment.startMs { next += 1 }
            var boundaries = [segment.startMs]
            while next < changes.count, changes[next] < segment.endMs {
                boundaries.append(changes[next])
                next += 1
            }
            boundaries.append(segment.endMs)
            for (start, end) in zip(boundaries, boundaries.dropFirst()) where end > start {
                var piece = segment
                piece.startMs = start
                piece.endMs = end
                let interval = twilioInterval(piece, regions: drawing, twilio: twilio, tracks: tracks, names: names)
                if let last = intervals.last, last.sameContent(as: interval) {
                    intervals[intervals.count - 1].endMs = end
                } else {
                    intervals.append(interval)
                }
            }
        }
        return intervals
    }

    /// Each region's grid and cells, in the layout's order.
    static func twilioRegionPlans(_ twilio: TwilioVideoLayout, timeline: StageTimeline, capture: Capture,
                                  names: TwilioTrackNames) -> [TwilioRegionPlan] {
        let sources = capture.tracks.filter { $0.kind == .video }.map { track in
            var spans: [TwilioVideoSource.Span] = []
            for segment in timeline.segments where segment.endMs > segment.startMs
                && segment.onStage.contains(where: { $0.tracks.contains { $0.trackId == track.id } }) {
                if let last = spans.last, last.toMs == segment.startMs {
                    spans[spans.count - 1].toMs = segment.endMs
                } else {
                    spans.append(.init(fromMs: segment.startMs, toMs: segment.endMs))
                }
            }
            return TwilioVideoSource(trackId: track.id, identity: names.identity(of: track), spans: spans)
        }
        return twilio.regions.map { TwilioCellPlanner.plan($0, sources: sources) }
    }

    private static func twilioInterval(_ segment: StageSegment, regions: [TwilioRegionPlan], twilio: TwilioVideoLayout,
                                       tracks: [String: Track], names: TwilioTrackNames) -> PlanInterval {
        var fills: [RegionFill] = []
        var tiles: [PlannedTile] = []
        for plan in regions {
            let shown = plan.shown(atMs: segment.startMs).compactMap { assignment -> PlannedTile? in
                guard let participant = segment.onStage.first(where: { $0.tracks.contains { $0.trackId == assignment.trackId } }),
                      let track = tracks[assignment.trackId] else { return nil }
                let source = LayoutSource(participantId: participant.participantId,
                                          kind: track.source == .screenShare ? .screenShare : .camera,
                                          pinnedAtMs: participant.pinnedAtMs, stageOrder: participant.stageOrder)
                let placed = PlacedTile(source: source, rect: plan.grid.rect(ofCell: assignment.cell, in: plan.frame),
                                        z: plan.region.z, fit: .contain, region: plan.region.name)
                return tile(for: placed, participant: participant, tracks: tracks, trackId: track.id)
            }
            guard !shown.isEmpty else { continue }
            fills.append(RegionFill(region: plan.region.name, rect: plan.frame, z: plan.region.z, color: .black))
            tiles += shown
        }
        // A track in two regions is read once, so each of its tiles takes the largest layer any of them needs.
        var largest: [String: LayerChoice] = [:]
        for tile in tiles {
            guard let id = tile.trackId, let layer = tile.layer else { continue }
            if largest[id].map({ $0.width * $0.height < layer.width * layer.height }) ?? true { largest[id] = layer }
        }
        for index in tiles.indices {
            guard let id = tiles[index].trackId, let layer = largest[id] else { continue }
            tiles[index].layer?.quality = layer.quality
            tiles[index].layer?.width = layer.width
            tiles[index].layer?.height = layer.height
            tiles[index].layer?.file = layer.file
        }
        let audio = segment.onStage.flatMap { participant in
            participant.tracks.compactMap { subscribed -> PlannedAudio? in
                guard subscribed.kind == .audio, let track = tracks[subscribed.trackId], let file = track.file,
                      twilio.mixes(names.identity(of: track)) else { return nil }
                return PlannedAudio(participantId: participant.participantId, trackId: track.id,
                                    source: track.source, file: file, muted: subscribed.flow == .muted)
            }
        }
        return PlanInterval(startMs: segment.startMs, endMs: segment.endMs, regions: fills, tiles: tiles, audio: audio,
                            sessionOffsetMs: segment.sessionOffsetMs)
    }
}
