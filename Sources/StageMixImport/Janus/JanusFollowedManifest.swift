import StageMixCapture

/// What the versions of a followed room's `session.json` have said so far, and the next version made
/// from the room as it is known now (``JanusRoomCapture`` computed anew each time) without changing a
/// word of it (the contract's "A capture in progress"): participants and tracks already listed keep
/// what they said (a picture that grew later, a name changed later, is a warning, not a change), the
/// events before the last `completeToMs` are those said, and an event found later that belongs before
/// it (a late line of the events log) is put at it, with a warning. Everything else is the computed
/// room's, so a room followed to its end says what a whole import of it says.
struct JanusFollowedManifest {
    private(set) var said: CaptureManifest?
    private(set) var completeToMs = 0
    private(set) var warnings: [String] = []

    /// The next version: `computed` known up to `completeToMs` (never lower than the last), or, with
    /// nil, the last version: every event, ending with `session.ended`, and no `recording`.
    mutating func next(_ computed: CaptureManifest, completeToMs newComplete: Int?) -> CaptureManifest {
        var version = computed
        let complete = newComplete.map { max($0, completeToMs) }
        if let said {
            version.sessionId = said.sessionId
            version.startedAt = said.startedAt
            version.participants = computed.participants.map { participant in
                guard let before = said.participants.first(where: { $0.id == participant.id }) else { return participant }
                if before != participant { warn("participant \(participant.id) is now \(participant.name); versions already said \(before.name), kept") }
                return before
            } + said.participants.filter { old in !computed.participants.contains { $0.id == old.id } }
            version.tracks = computed.tracks.map { track in
                guard let before = said.tracks.first(where: { $0.id == track.id }) else { return track }
                if before != track { warn("track \(track.id) is now \(Self.describe(track)); versions already said \(Self.describe(before)), kept") }
                return before
            } + said.tracks.filter { old in !computed.tracks.contains { $0.id == old.id } }
        }
        let end = complete ?? .max
        var early = computed.events.filter { $0.atMs < completeToMs }
        var late: [ManifestEvent] = []
        for event in said?.events ?? [] {
            if let index = early.firstIndex(of: event) { early.remove(at: index) } else {
                warn("\(event.type) at \(event.atMs) ms, said before, is no longer what the events tell; kept")
            }
        }
        for var event in early {
            warn("\(event.type) at \(event.atMs) ms came after the capture was said complete to \(completeToMs) ms; put there")
            event.atMs = completeToMs
            late.append(event)
        }
        late += computed.events.filter { $0.atMs >= completeToMs && $0.atMs < end && (complete == nil || $0.type != "session.ended") }
        version.events = (said?.events ?? []) + late.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        version.recording = complete.map { CaptureManifest.Recording(completeToMs: $0) }
        said = version
        completeToMs = complete ?? completeToMs
        return version
    }

    private mutating func warn(_ text: String) {
        if !warnings.contains(text) { warnings.append(text) }
    }

    private static func describe(_ track: CaptureManifest.Track) -> String {
        let size = track.layers?.first.map { " \($0.width)x\($0.height)" } ?? ""
        return "at \(track.startOffsetMs) ms\(size)"
    }
}
