import StageMixCapture
import StageMixLayout

/// Twilio's `Trim` as time taken out of the composition (docs/edits.md's cuts): the initial gap,
/// before the first media the composition includes, always; later gaps in which none of it is
/// published, unless `Trim` is false. Media a layout includes is a video track some region takes or an
/// audio track it mixes, so a stretch with only audio playing is never taken out.
enum TwilioTrim {
    /// `edits` with the gaps added as cuts (applied on the session's clock like any cut).
    static func edits(_ edits: SessionEdits, capture: Capture, twilio: TwilioVideoLayout, pauseGraceMs: Int) throws(CaptureError) -> SessionEdits {
        var untimed = edits
        untimed.trim = nil
        untimed.cut = []
        let timeline = try StageTimeline(capture: capture, pauseGraceMs: pauseGraceMs, edits: untimed)
        let names = TwilioTrackNames(capture: capture)
        let tracks = Dictionary(capture.tracks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        func included(_ trackId: String) -> Bool {
            guard let track = tracks[trackId] else { return false }
            let identity = names.identity(of: track)
            return track.kind == .video ? twilio.regions.contains { $0.takes(identity) } : twilio.mixes(identity)
        }
        var gaps: [SessionEdits.Span] = []
        var mediaSeen = false
        for segment in timeline.segments where segment.endMs > segment.startMs {
            if segment.onStage.contains(where: { $0.tracks.contains { included($0.trackId) } }) {
                mediaSeen = true
                continue
            }
            guard !mediaSeen || twilio.trim else { continue }
            if let last = gaps.last, last.toMs == segment.startMs {
                gaps[gaps.count - 1].toMs = segment.endMs
            } else {
                gaps.append(SessionEdits.Span(fromMs: segment.startMs, toMs: segment.endMs))
            }
        }
        // A composition with no media at all is left whole rather than emptied.
        guard mediaSeen, !gaps.isEmpty else { return edits }
        var trimmed = edits
        trimmed.cut += gaps
        return trimmed
    }
}
