public import Foundation
public import StageMixLayout
public import StageMixCapture
import StageMixTime

/// The whole composition as a value: canvas, and for each stretch of time every tile and audio source,
/// with the simulcast layer each tile subscribes to. Computed from a capture and a layout, before any media.
public struct CompositionPlan: Sendable, Hashable, Codable {
    public var sessionId: String
    /// The output's first instant in real time: the session's start, later when a trim removed its beginning.
    public var startedAt: Date
    public var durationMs: Int
    public var layoutName: String
    public var canvas: CanvasSize
    public var fps: Int
    public var background: RGBColor
    /// Contiguous, covering `[0, durationMs)`; adjacent intervals always differ.
    public var intervals: [PlanInterval]
    /// The active speaker over time, for a layout whose focus is the speaker; nil for other layouts.
    public var speakers: SpeakerTimeline?

    /// `speakers` (from the microphones, see ``ActiveSpeakerDetector``) is followed when the layout's
    /// focus is the speaker: each change of speaker starts an interval, the speaker's camera first.
    public init(capture: Capture, timeline: StageTimeline, layout: Layout, speakers: SpeakerTimeline? = nil) {
        sessionId = capture.sessionId
        // The output's first instant: later than the session's start when a trim cut its beginning.
        startedAt = capture.startedAt.addingTimeInterval(MediaTime.seconds(ms: timeline.output?.pieces.first?.sessionFromMs ?? 0))
        durationMs = timeline.durationMs
        layoutName = layout.name
        canvas = layout.canvas
        fps = layout.fps
        background = layout.background
        // Looked up for every tile of every segment: by id, not by a walk through the list.
        let tracks = Dictionary(capture.tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // Not worked out (a dry run that reads no media): the pinned order, and no speakers to show.
        let speakers = layout.focus == .speaker ? speakers : nil
        self.speakers = speakers
        if let twilio = layout.twilio {
            self.speakers = nil
            self.intervals = Self.twilioIntervals(twilio, timeline: timeline, capture: capture, tracks: tracks,
                                             names: TwilioTrackNames(capture: capture))
            return
        }
        var intervals: [PlanInterval] = []
        for whole in timeline.segments {
            // A change of speaker within a stretch of unchanged stage splits it.
            let boundaries = [whole.startMs] + (speakers?.changes(from: whole.startMs, to: whole.endMs) ?? []) + [whole.endMs]
            for (start, end) in zip(boundaries, boundaries.dropFirst()) {
                var segment = whole
                segment.startMs = start
                segment.endMs = end
                let interval = CompositionPlan.interval(for: segment, tracks: tracks, layout: layout,
                                                        speaker: speakers?.speaker(atMs: start))
                if let last = intervals.last, last.sameContent(as: interval) {
                    intervals[intervals.count - 1].endMs = interval.endMs
                } else {
                    intervals.append(interval)
                }
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

    static func interval(for segment: StageSegment, tracks: [String: Track], layout: Layout, speaker: String? = nil) -> PlanInterval {
        var sources: [LayoutSource] = []
        for participant in segment.onStage where participant.hasTile {
            sources.append(LayoutSource(participantId: participant.participantId, kind: .camera,
                                        pinnedAtMs: participant.pinnedAtMs, stageOrder: participant.stageOrder,
                                        speaking: participant.participantId == speaker))
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
                            regions: arrangement.regions, tiles: tiles, audio: audio, sessionOffsetMs: segment.sessionOffsetMs)
    }

    /// `trackId` names the track a tile shows (a Twilio layout places tracks, not participants); without
    /// it, the participant's track of the tile's kind.
    static func tile(for placed: PlacedTile, participant: OnStageParticipant, tracks: [String: Track], trackId: String? = nil) -> PlannedTile {
        let wanted: TrackSource = placed.source.kind == .screenShare ? .screenShare : .camera
        var tile = PlannedTile(participantId: participant.participantId, name: participant.name,
                               source: placed.source.kind, region: placed.region, rect: placed.rect, z: placed.z,
                               fit: placed.fit, show: .placeholder, trackId: nil, layer: nil,
                               placeholderReason: "no_video",
                               label: PlannedLabel.of(name: placed.source.kind == .screenShare ? "\(participant.name) (screen)" : participant.name,
                                                      style: placed.label))
        let subscribed = trackId.map { id in participant.tracks.first { $0.trackId == id } } ?? participant.track(source: wanted)
        guard let subscribed, let track = tracks[subscribed.trackId],
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
