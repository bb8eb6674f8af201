/// When one track's media exists, worked out from the scenario's events: the intervals it is
/// published (from `track.published` to `track.unpublished`, its participant leaving, or the
/// end) and, for video, the intervals its stream is paused. A pure value; no media here.
public struct TrackMediaTimeline: Sendable, Hashable {
    public var trackId: String
    /// Half-open millisecond intervals on the session clock, in order.
    public var published: [Range<Int>]
    /// Half-open intervals during which `track.stream_state` said `paused`.
    public var paused: [Range<Int>]

    /// The session time of the media's first sample (the first publish), nil if never published.
    public var startOffsetMs: Int? { published.first?.lowerBound }
    /// Where the media's last sample ends.
    public var endMs: Int? { published.last?.upperBound }

    public init(trackId: String, published: [Range<Int>], paused: [Range<Int>]) {
        self.trackId = trackId
        self.published = published
        self.paused = paused
    }

    /// Follows `scenario`'s events for every track.
    public static func all(in scenario: Scenario) -> [String: TrackMediaTimeline] {
        var owner: [String: String] = [:]
        for (p, t) in scenario.tracks { owner[t.id] = p.id }
        var publishedSince: [String: Int] = [:]
        var pausedSince: [String: Int] = [:]
        var result: [String: TrackMediaTimeline] = [:]
        for (_, t) in scenario.tracks { result[t.id] = TrackMediaTimeline(trackId: t.id, published: [], paused: []) }

        func close(_ trackId: String, at ms: Int) {
            if let start = pausedSince.removeValue(forKey: trackId), ms > start { result[trackId]?.paused.append(start..<ms) }
            if let start = publishedSince.removeValue(forKey: trackId), ms > start { result[trackId]?.published.append(start..<ms) }
        }
        for event in scenario.events where event.atMs <= scenario.durationMs {
            let ms = event.atMs
            switch event.type {
            case "track.published":
                if let id = event.trackId, publishedSince[id] == nil { publishedSince[id] = ms }
            case "track.unpublished":
                if let id = event.trackId { close(id, at: ms) }
            case "participant.left":
                for (id, p) in owner where p == event.participantId { close(id, at: ms) }
            case "track.stream_state":
                guard let id = event.trackId, publishedSince[id] != nil else { break }
                if event.state == "paused", pausedSince[id] == nil { pausedSince[id] = ms }
                if event.state == "active", let start = pausedSince.removeValue(forKey: id), ms > start {
                    result[id]?.paused.append(start..<ms)
                }
            default:
                break
            }
        }
        for id in publishedSince.keys.sorted() { close(id, at: scenario.durationMs) }
        return result
    }

    /// Whether video frames flow at `ms`: published and not paused.
    public func isFlowing(atMs ms: Double) -> Bool {
        published.contains { Double($0.lowerBound) <= ms && ms < Double($0.upperBound) }
            && !paused.contains { Double($0.lowerBound) <= ms && ms < Double($0.upperBound) }
    }

    /// The video frames to write at `frameRate`: frame `index` shows session time
    /// `startOffsetMs + index / frameRate`, and its presentation time in the file is `index`
    /// (in 1/frameRate), so the file's first frame lands on `startOffsetMs`. Frames while
    /// unpublished or paused are left out; the first frame after a gap is a keyframe.
    public func videoFrames(frameRate: Int) -> [SynthFrame] {
        guard let start = startOffsetMs, let end = endMs else { return [] }
        var frames: [SynthFrame] = []
        var index = 0
        var previousWritten = -1
        while true {
            let ms = Double(start) + Double(index * 1000) / Double(frameRate)
            guard ms < Double(end) else { break }
            if isFlowing(atMs: ms) {
                frames.append(SynthFrame(index: index, sessionMs: ms, resumes: previousWritten >= 0 && previousWritten != index - 1))
                previousWritten = index
            }
            index += 1
        }
        return frames
    }
}

/// One video frame to synthesize: its index on the track's frame grid (its pts), the session
/// time it shows, and whether it follows a gap (so it must be a keyframe).
public struct SynthFrame: Sendable, Hashable {
    public var index: Int
    public var sessionMs: Double
    public var resumes: Bool
}
