import StageMixCapture

/// When a track's media should exist, from the capture's events: published (until unpublished, its
/// participant leaving, or the end), and not paused or muted, since an SFU records nothing then.
/// The probe holds each file against it: a file that ends early, or goes quiet inside it, lost media.
struct PublishedMedia {
    /// Half-open millisecond stretches on the session clock, in order.
    var stretches: [Range<Int>]

    /// Where the last stretch ends; nil if the track was never published.
    var endMs: Int? { stretches.last?.upperBound }

    init(track: Track, in capture: Capture) {
        var published = false, paused = false, muted = false
        var since: Int?
        var stretches: [Range<Int>] = []
        func update(at ms: Int) {
            let flowing = published && !paused && !muted
            if flowing, since == nil { since = ms }
            if !flowing, let start = since {
                if ms > start { stretches.append(start..<ms) }
                since = nil
            }
        }
        for event in capture.events {
            switch event.action {
            case .trackPublished(let id) where id == track.id: published = true
            case .trackUnpublished(let id) where id == track.id: published = false
            case .participantLeft(let id) where id == track.participantId: published = false
            case .streamState(let id, let state) where id == track.id: paused = state == .paused
            case .trackMuted(let id) where id == track.id: muted = true
            case .trackUnmuted(let id) where id == track.id: muted = false
            default: continue
            }
            update(at: event.atMs)
        }
        published = false
        update(at: capture.durationMs)
        self.stretches = stretches
    }

    /// How much of `[from, to)` lies inside the published stretches, in milliseconds.
    func overlapMs(_ from: Int, _ to: Int) -> Int {
        stretches.reduce(0) { $0 + max(0, min(to, $1.upperBound) - max(from, $1.lowerBound)) }
    }
}
