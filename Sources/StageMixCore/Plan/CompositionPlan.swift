import Foundation
import StageMixLayout

/// The whole composition as a value: canvas, and for each stretch of time every tile and audio source,
/// with the simulcast layer each tile subscribes to. Computed from a capture and a layout, before any media.
public struct CompositionPlan: Sendable, Hashable, Codable {
    public var sessionId: String
    public var startedAt: Date
    public var durationMs: Int
    public var layoutName: String
    public var canvas: CanvasSize
    public var fps: Int
    public var background: RGBColor
    /// Contiguous, covering `[0, durationMs)`; adjacent intervals always differ.
    public var intervals: [PlanInterval]

    public init(capture: Capture, timeline: StageTimeline, layout: Layout) {
        sessionId = capture.sessionId
        startedAt = capture.startedAt
        durationMs = timeline.durationMs
        layoutName = layout.name
        canvas = layout.canvas
        fps = layout.fps
        background = layout.background
        // Looked up for every tile of every segment: by id, not by a walk through the list.
        let tracks = Dictionary(capture.tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var intervals: [PlanInterval] = []
        for segment in timeline.segments {
            let interval = CompositionPlan.interval(for: segment, tracks: tracks, layout: layout)
            if let last = intervals.last, last.sameContent(as: interval) {
                intervals[intervals.count - 1].endMs = interval.endMs
            } else {
                intervals.append(interval)
            }
        }
        self.intervals = intervals
    }

    /// The interval covering `atMs`, if within the session.
    public func interval(atMs: Int) -> PlanInterval? {
        intervals.covering(atMs)
    }

    /// Every (track, layer file) any interval reads, so the pipeline opens only these.
    public var subscribedFiles: Set<String> {
        Set(intervals.flatMap { $0.tiles.compactMap(\.layer?.file) + $0.audio.map(\.file) })
    }

    static func interval(for segment: StageSegment, tracks: [String: Track], layout: Layout) -> PlanInterval {
        var sources: [LayoutSource] = []
        for participant in segment.onStage where participant.hasTile {
            sources.append(LayoutSource(participantId: participant.participantId, kind: .camera,
                                        pinnedAtMs: participant.pinnedAtMs, stageOrder: participant.stageOrder))
            if participant.track(source: .screenShare) != nil {
                sources.append(LayoutSource(participantId: participant.participantId, kind: .screenShare,
                                            pinnedAtMs: participant.pinnedAtMs, stageOrder: participant.stageOrder))
            }
        }
        let arrangement = layout.arrange(sources)
        let byId = Dictionary(uniqueKeysWithValues: segment.onStage.map { ($0.participantId, $0) })
        let tiles = arrangement.tiles.enumerated()
            .sorted { ($0.element.z, $0.offset) < ($1.element.z, $1.offset) }
            .compactMap { placed -> PlannedTile? in
                guard let participant = byId[placed.element.source.participantId] else { return nil }
                return tile(for: placed.element, participant: participant, tracks: tracks)
            }
        let audio = segment.onStage.flatMap { participant in
            participant.tracks.compactMap { subscribed -> PlannedAudio? in
                guard subscribed.kind == .audio, let track = tracks[subscribed.trackId],
                      let file = track.file else { return nil }
                return PlannedAudio(participantId: participant.participantId, trackId: track.id,
                                    source: track.source, file: file, muted: subscribed.flow == .muted)
            }
        }
        return PlanInterval(startMs: segment.startMs, endMs: segment.endMs,
                            regions: arrangement.regions, tiles: tiles, audio: audio)
    }

    static func tile(for placed: PlacedTile, participant: OnStageParticipant, tracks: [String: Track]) -> PlannedTile {
        let wanted: TrackSource = placed.source.kind == .screenShare ? .screenShare : .camera
        var tile = PlannedTile(participantId: participant.participantId, name: participant.name,
                               source: placed.source.kind, region: placed.region, rect: placed.rect, z: placed.z,
                               fit: placed.fit, show: .placeholder, trackId: nil, layer: nil,
                               placeholderReason: "no_video",
                               label: PlannedLabel.of(name: participant.name, style: placed.label))
        guard let subscribed = participant.track(source: wanted), let track = tracks[subscribed.trackId],
              let layer = LayerChoice.choose(for: track, tile: placed.rect, fit: placed.fit) else { return tile }
        tile.trackId = track.id
        tile.layer = layer
        switch subscribed.flow {
        case .flowing: tile.show = .video; tile.placeholderReason = nil
        case .pausedHolding: tile.show = .heldFrame; tile.placeholderReason = nil
        case .muted: tile.placeholderReason = "muted"
        case .paused: tile.placeholderReason = "paused"
        }
        return tile
    }
}
