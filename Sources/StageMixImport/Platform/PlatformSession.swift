import Foundation
import StageMixCapture

/// What every importer of a platform's per-track recordings assembles, and how it becomes a capture:
/// participants by the names the platform's own data gives, tracks placed on the wall clock, the
/// warnings of what was lost, and sentences on how the files were aligned (``ImportNote/alignment``).
///
/// The session clock's zero is the earliest instant known (a track's start or an instant the platform
/// noted). Every participant with a recorded track is on stage from their first publication to their
/// last unpublication (these platforms record publishers; they have no stage of their own), unless the
/// importer says otherwise with ``present(_:from:to:)``.
struct PlatformSession {
    private(set) var participants: [(id: String, name: String)] = []
    private(set) var tracks: [PlacedTrack] = []
    var warnings: [String] = []
    var alignment: [String] = []
    private var presence: [String: ClosedRange<Int64>] = [:]
    private var instants: [Int64] = []

    /// A participant, shown as `name`; a later call with the same id changes nothing.
    mutating func participant(_ id: String, name: String) {
        if !participants.contains(where: { $0.id == id }) { participants.append((id, name)) }
    }

    /// A track; its id gets `#2`, `#3`... when taken. Returns the id used.
    @discardableResult
    mutating func add(_ track: PlacedTrack) -> String {
        var track = track
        var id = track.id, n = 1
        while tracks.contains(where: { $0.id == id }) { n += 1; id = "\(track.id)#\(n)" }
        track.id = id
        if track.toMs < track.fromMs { track.toMs = track.fromMs }
        tracks.append(track)
        return id
    }

    /// The participant is on stage (at least) from `from` to `to`.
    mutating func present(_ id: String, from: Int64, to: Int64) {
        let span = presence[id]
        presence[id] = min(span?.lowerBound ?? from, from)...max(span?.upperBound ?? to, to, from)
    }

    /// An instant the platform's data names (a recording's start), so the clock's zero is no later.
    mutating func note(instant: Int64) { instants.append(instant) }

    /// The capture, with `sessionId`, from the platform `platform`.
    func capture(sessionId: String, platform: String) -> ImportedCapture {
        var spans = presence
        for track in tracks {
            let span = spans[track.participantId]
            spans[track.participantId] = min(span?.lowerBound ?? track.fromMs, track.fromMs)...max(span?.upperBound ?? track.toMs, track.toMs)
        }
        let zero = (tracks.flatMap { [$0.fromMs, $0.mediaStartMs] } + instants + spans.values.map(\.lowerBound)).min() ?? 0
        func ms(_ instant: Int64) -> Int { Int(instant - zero) }
        var events = ImportedEvents()
        var media: [String: URL] = [:]
        var manifestTracks: [CaptureManifest.Track] = []
        for track in tracks {
            if case .linked(let url) = track.media { media[track.file] = url }
            switch track.kind {
            case .audio:
                manifestTracks.append(CaptureManifest.Track(id: track.id, participantId: track.participantId, kind: .audio, source: track.source,
                                                            startOffsetMs: ms(track.mediaStartMs), file: track.file))
            case .video:
                let layer = TrackLayer(quality: .high, width: track.width ?? 1280, height: track.height ?? 720, file: track.file)
                manifestTracks.append(CaptureManifest.Track(id: track.id, participantId: track.participantId, kind: .video, source: track.source,
                                                            startOffsetMs: ms(track.mediaStartMs), layers: [layer]))
            }
            events.published(track.id, from: ms(track.fromMs), to: ms(track.toMs))
            for mute in track.mutes {
                events.muted(true, track.id, at: ms(mute.lowerBound))
                if mute.upperBound < track.toMs { events.muted(false, track.id, at: ms(mute.upperBound)) }
            }
        }
        let shown = participants.filter { spans[$0.id] != nil }
        for (id, _) in shown { events.onStage(id, from: ms(spans[id]!.lowerBound), to: ms(spans[id]!.upperBound)) }
        let end = spans.values.map { ms($0.upperBound) }.max() ?? 0
        let manifest = CaptureManifest(sessionId: sessionId, startedAt: PlatformClock.rfc3339(zero),
                                       participants: shown.map { Participant(id: $0.id, name: $0.name) },
                                       tracks: manifestTracks, events: events.ordered(endingAt: end))
        return ImportedCapture(manifest: manifest, media: media, warnings: warnings, platform: platform, alignment: alignment)
    }
}
