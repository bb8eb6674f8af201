public import Foundation
import StageMixCapture
import StageMixJSON

/// A Twilio Programmable Video room's recordings as a user saves them, imported as a capture:
///
/// - `room.json` (`GET /v1/Rooms/{RoomSid}`): `sid`, `unique_name`, `date_created`, `end_time`;
/// - `participants.json` (the list resource): `participants[]` with `sid`, `identity`, `start_time`, `end_time`;
/// - `recordings.json` (the list resource): `recordings[]` with `sid`, `source_sid`, `type`, `codec`,
///   `container_format`, `duration`, `offset`, `track_name`, `grouping_sids.participant_sid`, `status`;
/// - the media, `<RecordingSid>.mka` / `.mkv`, beside them;
/// - optionally the room's status callbacks saved as JSON lines (`callbacks.jsonl`, or the file
///   given): `track-disabled` and `track-enabled` become mute and unmute.
///
/// Time: room time 0 is the room's `date_created`; a sample at presentation time t of a recording (Twilio
/// writes the time since the room started, so a late joiner's file starts far from zero) is at room
/// time t + (its `offset` − the smallest `offset` of the room's recordings). Twilio has no stage: every
/// participant with a recording is on stage (joined `SEND_AND_RECV` and pinned) from when they
/// joined until they left. Each recording is one track (a republished track is a new recording), ending
/// where its media ends; the session ends at the room's `end_time`, or where the last media or participant
/// ends if that is later (or the room has not said), never at a `duration` rounded to the second.
/// See docs/import.md.
public struct TwilioRoom: Sendable {
    public let directory: URL
    public var screenShareNames: [NamePattern]
    /// The status callbacks file; by default `callbacks.jsonl` in the room's folder, if it is there.
    public var callbacks: URL?

    public init(directory: URL, screenShareNames: [NamePattern] = [NamePattern("screen*")], callbacks: URL? = nil) {
        self.directory = directory.standardizedFileURL
        self.screenShareNames = screenShareNames
        self.callbacks = callbacks
    }

    struct Recording {
        var sid: String
        var sourceSid: String
        var kind: String
        var codec: String
        var container: String
        var durationMs: Int?
        var offsetMs: Int
        var trackName: String
        var participantSid: String
        var status: String
        var path: String
    }

    struct RoomParticipant {
        var sid: String
        var identity: String
        var startMs: Int
        var endMs: Int?
    }

    public func read() throws -> ImportedCapture {
        var problems: [JSONProblem] = []
        let room = PlatformDocument(directory.appendingPathComponent("room.json"))
        let participantsFile = PlatformDocument(directory.appendingPathComponent("participants.json"))
        let recordingsFile = PlatformDocument(directory.appendingPathComponent("recordings.json"))
        guard let roomObject = room.object(&problems), let participantsObject = participantsFile.object(&problems),
              let recordingsObject = recordingsFile.object(&problems) else { throw ImportError(problems: problems) }

        var walker = JSONWalker(file: "room.json")
        let created = walker.field(roomObject, "date_created", at: .root, expected: "an ISO 8601 time", PlatformDocument.date)
        let roomSid = walker.field(roomObject, "sid", at: .root, expected: "the room's sid (RM...)", JSONConvert.nonEmptyString)
        let uniqueName = walker.field(roomObject, "unique_name", at: .root, required: false, expected: "a string", JSONConvert.string)
        let endTime = walker.optionalField(roomObject, "end_time", at: .root, expected: "an ISO 8601 time or null", PlatformDocument.date) ?? nil
        problems += walker.problems
        guard let created, let roomSid else { throw ImportError(problems: problems) }
        func ms(_ date: Date) -> Int { Int((date.timeIntervalSince(created) * 1000).rounded()) }

        walker = JSONWalker(file: "participants.json")
        var participants: [String: RoomParticipant] = [:]
        for (i, element) in (walker.array(participantsObject, "participants", at: .root, of: "participants", limit: CaptureLimits.maxParticipants) ?? []).enumerated() {
            let path = JSONPath.root.key("participants").index(i)
            guard let object = walker.object(element, at: path) else { continue }
            let sid = walker.field(object, "sid", at: path, expected: "a participant sid (PA...)", JSONConvert.nonEmptyString)
            let identity = walker.field(object, "identity", at: path, expected: "a non-empty identity", JSONConvert.nonEmptyString)
            let start = walker.field(object, "start_time", at: path, expected: "an ISO 8601 time", PlatformDocument.date)
            let end = walker.optionalField(object, "end_time", at: path, expected: "an ISO 8601 time or null", PlatformDocument.date) ?? nil
            if let sid, let identity, let start {
                participants[sid] = RoomParticipant(sid: sid, identity: identity, startMs: ms(start), endMs: end.map(ms))
            }
        }
        problems += walker.problems

        walker = JSONWalker(file: "recordings.json")
        var recordings: [Recording] = []
        for (i, element) in (walker.array(recordingsObject, "recordings", at: .root, of: "recordings", limit: CaptureLimits.maxTracks) ?? []).enumerated() {
            let path = JSONPath.root.key("recordings").index(i)
            guard let object = walker.object(element, at: path) else { continue }
            let sid = walker.field(object, "sid", at: path, expected: "a recording sid (RT...)", JSONConvert.nonEmptyString)
            let kind = walker.field(object, "type", at: path, expected: "\"audio\" or \"video\"", JSONConvert.string)
            let codec = walker.field(object, "codec", at: path, required: false, expected: "a codec name", JSONConvert.string) ?? ""
            let container = walker.field(object, "container_format", at: path, required: false, expected: "\"mka\" or \"mkv\"", JSONConvert.string)
            let duration = walker.optionalField(object, "duration", at: path, expected: "seconds, or null", PlatformDocument.seconds) ?? nil
            let offset = walker.field(object, "offset", at: path, expected: "the recording's offset in milliseconds", JSONConvert.integer(in: 0...Int(Int64.max / 4)))
            let trackName = walker.field(object, "track_name", at: path, required: false, expected: "a string", JSONConvert.string) ?? ""
            let source = walker.field(object, "source_sid", at: path, required: false, expected: "a track sid (MT...)", JSONConvert.string) ?? ""
            let status = walker.field(object, "status", at: path, required: false, expected: "a status", JSONConvert.string) ?? "completed"
            let grouping = walker.member(object, "grouping_sids", at: path, expected: "an object with participant_sid").flatMap {
                walker.object($0, at: path.key("grouping_sids"))
            }
            let participant = grouping.flatMap {
                walker.field($0, "participant_sid", at: path.key("grouping_sids"), expected: "a participant sid (PA...)", JSONConvert.nonEmptyString)
            }
            guard let sid, let kind, let offset, let participant else { continue }
            guard kind == "audio" || kind == "video" else { continue }  // data tracks have nothing to compose
            let ext = (container ?? (kind == "audio" ? "mka" : "mkv")).lowercased()
            recordings.append(Recording(sid: sid, sourceSid: source, kind: kind, codec: codec.uppercased(), container: ext,
                                        durationMs: duration, offsetMs: offset, trackName: trackName, participantSid: participant,
                                        status: status.lowercased(), path: "media/\(sid).\(ext)"))
        }
        problems += walker.problems
        if !problems.isEmpty { throw ImportError(problems: problems) }

        return try build(roomSid: roomSid, uniqueName: uniqueName, created: created, endMs: endTime.map(ms),
                         participants: participants, recordings: recordings, ms: ms)
    }

    private func build(roomSid: String, uniqueName: String?, created: Date, endMs: Int?, participants: [String: RoomParticipant],
                       recordings: [Recording], ms: (Date) -> Int) throws -> ImportedCapture {
        var warnings: [String] = []
        var media: [String: URL] = [:]
        let origin = recordings.map(\.offsetMs).min() ?? 0
        var tracks: [CaptureManifest.Track] = []
        var events = ImportedEvents()
        var spans: [String: (start: Int, end: Int)] = [:]  // by recording sid
        var bySource: [String: [String]] = [:]
        var lastEnd = endMs ?? 0
        for recording in recordings.sorted(by: { ($0.offsetMs, $0.sid) < ($1.offsetMs, $1.sid) }) {
            let file = directory.appendingPathComponent("\(recording.sid).\(recording.container)")
            if recording.status != "completed" {
                warnings.append("recording \(recording.sid) (\(recording.trackName)) is \(recording.status), not completed: composed with what its file holds, if anything")
            }
            if FileManager.default.fileExists(atPath: file.path) {
                media[recording.path] = file
            } else {
                warnings.append("recording \(recording.sid) (\(recording.trackName)): no file \(file.lastPathComponent); it is reported as lost media")
            }
            // Twilio writes the time since the room started as the file's timestamps: its first one places the
            // track, and its last sample's end is where the recording really ends.
            let header = media[recording.path].flatMap { MediaHeader($0, kind: recording.kind == "audio" ? .audio : .video, readingToEnd: true) }
            let roomTime = recording.offsetMs - origin
            let start = roomTime + max(0, header?.firstMs ?? 0)
            let end = Self.end(startingAt: start, durationMs: recording.durationMs, mediaEnd: header?.endMs.map { roomTime + $0 }, roomEnd: endMs)
            spans[recording.sid] = (start, end)
            lastEnd = max(lastEnd, end)
            bySource[recording.sourceSid, default: []].append(recording.sid)
            let identity = participants[recording.participantSid]?.identity ?? recording.participantSid
            if recording.kind == "audio" {
                tracks.append(CaptureManifest.Track(id: recording.sid, participantId: identity, kind: .audio, source: .microphone,
                                                    startOffsetMs: start, file: recording.path))
            } else {
                let screen = screenShareNames.contains { $0.matches(recording.trackName) }
                tracks.append(CaptureManifest.Track(id: recording.sid, participantId: identity, kind: .video, source: screen ? .screenShare : .camera,
                                                    startOffsetMs: start,
                                                    layers: [TrackLayer(quality: .high, width: header?.width ?? 1280, height: header?.height ?? 720,
                                                                        file: recording.path)]))
            }
            events.published(recording.sid, from: start, to: end)
        }
        // Every participant with a recording is on stage while in the room; one who joined twice (two sids) twice.
        let withRecordings = Set(recordings.map(\.participantSid))
        var identities: [String] = []
        for sid in withRecordings.sorted() {
            let own = recordings.filter { $0.participantSid == sid }.compactMap { spans[$0.sid] }
            let first = own.map(\.start).min() ?? 0, last = own.map(\.end).max() ?? 0
            let known = participants[sid]
            let identity = known?.identity ?? sid
            if !identities.contains(identity) { identities.append(identity) }
            let join = min(max(0, known?.startMs ?? first), first)
            let leave = max(known?.endMs ?? last, last)
            lastEnd = max(lastEnd, leave)
            events.onStage(identity, from: join, to: leave)
        }
        try addMutes(to: &events, bySource: bySource, spans: spans, ms: ms)
        let ordered = events.ordered(endingAt: lastEnd)
        let manifest = CaptureManifest(sessionId: uniqueName.flatMap { $0.isEmpty ? nil : $0 } ?? roomSid,
                                       startedAt: PlatformDocument.rfc3339(created),
                                       participants: identities.sorted().map { StageMixCapture.Participant(id: $0, name: $0) },
                                       tracks: tracks, events: ordered)
        // What a Twilio VideoLayout or AudioSources can call each track by (docs/layouts.md).
        let names = Dictionary(recordings.map { recording in
            (recording.sid, ["track_name": recording.trackName, "source_sid": recording.sourceSid,
                             "participant_sid": recording.participantSid])
        }, uniquingKeysWith: { first, _ in first })
        return ImportedCapture(manifest: manifest, media: media, warnings: warnings, platform: "twilio", trackNames: names)
    }

    /// Where a recording ends: where its media ends, to the millisecond. Twilio's `duration` is whole seconds
    /// (a 43.5 s recording reads 44), so it decides only where there is no media to read, or where the media
    /// stops a second or more before it (a track whose media stopped before it was unpublished); and a
    /// duration never runs past the room's end.
    static func end(startingAt start: Int, durationMs: Int?, mediaEnd: Int?, roomEnd: Int?) -> Int {
        var said = durationMs.map { start + $0 } ?? roomEnd ?? mediaEnd ?? start
        if let roomEnd { said = min(said, max(roomEnd, start)) }
        guard let mediaEnd = mediaEnd.map({ max($0, start) }) else { return said }
        return said - mediaEnd >= 1000 ? said : mediaEnd
    }

    /// `track-disabled` / `track-enabled` callbacks, ordered by `Timestamp` (not `SequenceNumber`, which
    /// Twilio numbers per callback URL), as mute and unmute of the recordings of that track, inside them.
    private func addMutes(to events: inout ImportedEvents, bySource: [String: [String]], spans: [String: (start: Int, end: Int)],
                          ms: (Date) -> Int) throws {
        let file = callbacks ?? directory.appendingPathComponent("callbacks.jsonl")
        guard callbacks != nil || FileManager.default.fileExists(atPath: file.path) else { return }
        let lines = try TwilioCallbacks.read(file)
        var muted: Set<String> = []
        for callback in lines.sorted(by: { $0.time < $1.time }) {
            guard callback.event == "track-disabled" || callback.event == "track-enabled" else { continue }
            let mute = callback.event == "track-disabled"
            let at = ms(callback.time)
            for sid in bySource[callback.trackSid] ?? [] {
                // Inside the recording, and a change: a repeated callback says nothing new.
                guard let span = spans[sid], at > span.start, at < span.end, muted.contains(sid) != mute else { continue }
                if mute { muted.insert(sid) } else { muted.remove(sid) }
                events.muted(mute, sid, at: at)
            }
        }
    }
}
