public import Foundation
import StageMixCapture
import StageMixJSON

/// A LiveKit room's Track Egress recordings as a user collects them in one folder, imported as a capture:
///
/// - each track's files (`.webm`, `.mp4`, `.ogg`, `.mkv`) with the JSON LiveKit writes about them:
///   a Track Egress manifest (`publisher_identity`, `track_id`, `track_kind`, `track_source`,
///   `started_at`/`ended_at` in nanoseconds, once, for the egress; `files[]` with `filename`), or
///   an `EgressInfo` (`egress_id`, `room_name`, the `track` request with `track_id`, and
///   `file_results[]` with `filename`, `started_at`, `ended_at`, `duration` in nanoseconds);
/// - optionally the webhook log (`webhooks.jsonl`, or the file given): protojson, one event per line
///   (`participant_joined`/`participant_left`, `track_published`/`track_unpublished` with its
///   `TrackInfo`; `participant.name`, the name people are shown by), camelCase keys, 64-bit integers
///   as strings, enums as names, `createdAt` in seconds.
///
/// Time: session time 0 is the earliest moment known (a file's start, a webhook); each file is placed
/// by its own `started_at` (a manifest's file by the manifest's), to the nanosecond, and its samples
/// follow the contract's rule from there.
/// Joins, leaves and publications come from the webhooks (to the second), refined by the files'
/// times: a participant has joined by their first file's start and left after their last file's end.
/// Every participant with a recorded track is on stage while in the room. See docs/import.md.
public struct LiveKitExport: Sendable {
    public let directory: URL
    public var webhooks: URL?

    public init(directory: URL, webhooks: URL? = nil) {
        self.directory = directory.standardizedFileURL
        self.webhooks = webhooks
    }

    /// One recorded file of one track.
    struct Recording {
        var trackId: String
        var identity: String?
        var kind: String?
        var source: String?
        var file: String
        var startNs: Int64
        var endNs: Int64?
    }

    public func read() throws -> ImportedCapture {
        var problems: [JSONProblem] = []
        var recordings: [Recording] = []
        var roomName: String?
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names.sorted() where name.hasSuffix(".json") {
            let document = PlatformDocument(directory.appendingPathComponent(name))
            guard let object = document.object(&problems) else { continue }
            // Other JSON beside the files (a room dump, a layout) is not an egress's: left alone.
            guard object["files"] != nil || object["file_results"] != nil else { continue }
            var walker = JSONWalker(file: name)
            let read = Self.recordings(in: object, walker: &walker)
            roomName = roomName ?? read.room
            recordings += read.recordings
            problems += walker.problems
        }
        if recordings.isEmpty && problems.isEmpty {
            problems.append(JSONProblem(file: directory.path, path: "", expected: "Track Egress manifests or EgressInfo JSON beside their files",
                                        found: "no .json file describing a recorded track"))
        }
        let events = try webhookEvents()
        if !problems.isEmpty { throw ImportError(problems: problems) }
        return build(recordings: recordings, webhooks: events, roomName: roomName)
    }

    /// The files a manifest or an EgressInfo describes.
    static func recordings(in object: JSONObject, walker: inout JSONWalker) -> (room: String?, recordings: [Recording]) {
        let room = walker.field(object, "room_name", at: .root, required: false, expected: "a string", JSONConvert.string)
        // A Track Egress manifest names its track, publisher, kind and source beside `files`; an EgressInfo
        // names only the track, in its track request, beside `file_results`.
        let manifest = object["files"] != nil
        var track: String?
        var template = Recording(trackId: "", identity: nil, kind: nil, source: nil, file: "", startNs: 0, endNs: nil)
        if manifest {
            track = walker.field(object, "track_id", at: .root, expected: "the track's sid (TR_...)", JSONConvert.nonEmptyString)
            template.identity = walker.field(object, "publisher_identity", at: .root, required: false, expected: "a string", JSONConvert.string)
            template.kind = walker.field(object, "track_kind", at: .root, required: false, expected: "a track kind", JSONConvert.string)
            template.source = walker.field(object, "track_source", at: .root, required: false, expected: "a track source", JSONConvert.string)
        } else {
            let request = walker.member(object, "track", at: .root, required: false, expected: "the track egress request")
                .flatMap { walker.object($0, at: JSONPath.root.key("track")) }
            track = request.flatMap { walker.field($0, "track_id", at: JSONPath.root.key("track"), expected: "the track's sid", JSONConvert.nonEmptyString) }
        }
        // LiveKit's manifest carries the egress's times once, at its top level (`EgressInfo.started_at`,
        // which it copies), and its files only a name and a location; an EgressInfo's file results carry
        // their own. A file's own times win; the document's are its first file's start and a lone file's end.
        let nanoseconds = "nanoseconds since 1970 (a number or a string of digits)"
        let egressStart = walker.field(object, "started_at", at: .root, required: false, expected: nanoseconds, Self.nanoseconds)
        let egressEnd = walker.field(object, "ended_at", at: .root, required: false, expected: nanoseconds, Self.nanoseconds)
        let key = manifest ? "files" : "file_results"
        var out: [Recording] = []
        let files = walker.array(object, key, at: .root, of: manifest ? "files" : "file results", limit: 10_000) ?? []
        for (i, element) in files.enumerated() {
            let path = JSONPath.root.key(key).index(i)
            guard let file = walker.object(element, at: path), let track else { continue }
            let name = walker.field(file, "filename", at: path, expected: "the file's name", JSONConvert.nonEmptyString)
            let ownStart = walker.field(file, "started_at", at: path, required: false, expected: nanoseconds, Self.nanoseconds)
            let end = walker.field(file, "ended_at", at: path, required: false, expected: nanoseconds, Self.nanoseconds)
                ?? (files.count == 1 ? egressEnd : nil)
            let start = ownStart ?? (i == 0 ? egressStart : nil)
            if start == nil, file["started_at"] == nil {
                if i == 0 {
                    walker.problem(.root.key("started_at"), expected: nanoseconds + ": the egress's start, which places its file", found: "nothing")
                } else {
                    walker.problem(path.key("started_at"), expected: nanoseconds + " (the document's own started_at places only its first file)", found: "nothing")
                }
            }
            if let name, let start {
                var recording = template
                recording.trackId = track
                recording.file = name
                recording.startNs = start
                recording.endNs = end
                out.append(recording)
            }
        }
        return (room, out)
    }

    /// A 64-bit integer as protojson writes it (a string of digits) or as a plain JSON number.
    static func nanoseconds(_ value: JSONValue) -> Int64? {
        switch value {
        case .string(let text): return Int64(text).flatMap { $0 >= 0 ? $0 : nil }
        default: return JSONConvert.integer(in: 0...Int.max)(value).map(Int64.init)
        }
    }

    private func webhookEvents() throws -> [LiveKitWebhook] {
        let file = webhooks ?? directory.appendingPathComponent("webhooks.jsonl")
        guard webhooks != nil || FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try LiveKitWebhook.read(file)
    }

    private func build(recordings: [Recording], webhooks: [LiveKitWebhook], roomName: String?) -> ImportedCapture {
        var warnings: [String] = []
        // What the webhooks say of each track: its publisher, kind, source and simulcast layers.
        var info: [String: LiveKitWebhook.Track] = [:]
        var owner: [String: String] = [:]
        var names: [String: String] = [:]  // by identity: the latest name the webhooks give
        for event in webhooks.sorted(by: { $0.createdAt < $1.createdAt }) {
            if let identity = event.identity, let name = event.name, !name.isEmpty { names[identity] = name }
            if let track = event.track {
                info[track.sid] = track
                if let identity = event.identity { owner[track.sid] = identity }
            }
        }
        let zeroNs = min(recordings.map(\.startNs).min() ?? Int64.max, webhooks.map { $0.createdAt * 1_000_000_000 }.min() ?? Int64.max)
        func ms(_ ns: Int64) -> Int { Int((ns - zeroNs) / 1_000_000) }

        var media: [String: URL] = [:]
        var tracks: [CaptureManifest.Track] = []
        var events = ImportedEvents()
        var spans: [String: (start: Int, end: Int)] = [:]  // by participant identity
        var end = 0
        var counts: [String: Int] = [:]
        for recording in recordings.sorted(by: { ($0.startNs, $0.file) < ($1.startNs, $1.file) }) {
            let track = info[recording.trackId]
            guard let identity = recording.identity ?? owner[recording.trackId] else {
                warnings.append("\(recording.file): no publisher for track \(recording.trackId) (neither in its manifest nor in the webhooks); left out")
                continue
            }
            let kind = (recording.kind ?? track?.type ?? Self.kind(ofFile: recording.file)).lowercased()
            let source = (recording.source ?? track?.source ?? (kind == "audio" ? "MICROPHONE" : "CAMERA")).uppercased()
            let url = directory.appendingPathComponent(recording.file)
            let relative = "media/" + recording.file
            if FileManager.default.fileExists(atPath: url.path) {
                media[relative] = url
            } else {
                warnings.append("\(recording.file): no such file; track \(recording.trackId) is reported as lost media")
            }
            let header = media[relative].flatMap { MediaHeader($0, kind: kind == "audio" ? .audio : .video) }
            let start = ms(recording.startNs)
            let stop = recording.endNs.map(ms) ?? start
            // A track recorded in several files (a segmented egress) is one track per file.
            counts[recording.trackId, default: 0] += 1
            let id = counts[recording.trackId]! == 1 ? recording.trackId : "\(recording.trackId)#\(counts[recording.trackId]!)"
            if kind == "audio" {
                tracks.append(CaptureManifest.Track(id: id, participantId: identity, kind: .audio,
                                                    source: source == "SCREEN_SHARE_AUDIO" ? .screenShareAudio : .microphone,
                                                    startOffsetMs: start, file: relative))
            } else {
                let width = header?.width ?? track?.width ?? 1280, height = header?.height ?? track?.height ?? 720
                tracks.append(CaptureManifest.Track(id: id, participantId: identity, kind: .video,
                                                    source: source == "SCREEN_SHARE" ? .screenShare : .camera, startOffsetMs: start,
                                                    layers: [TrackLayer(quality: .high, width: width, height: height, file: relative)]))
            }
            events.published(id, from: start, to: max(stop, start))
            let span = spans[identity]
            spans[identity] = (min(span?.start ?? start, start), max(span?.end ?? stop, stop))
            end = max(end, stop)
        }
        // Joins and leaves: the webhooks' (to the second), never later than the first file or earlier than the last.
        for (identity, span) in spans.sorted(by: { $0.key < $1.key }) {
            let joined = webhooks.filter { $0.event == "participant_joined" && $0.identity == identity }.map { ms($0.createdAt * 1_000_000_000) }.min()
            let left = webhooks.filter { $0.event == "participant_left" && $0.identity == identity }.map { ms($0.createdAt * 1_000_000_000) }.max()
            let join = max(0, min(joined ?? span.start, span.start))
            let leave = max(left ?? span.end, span.end)
            end = max(end, leave)
            events.onStage(identity, from: join, to: leave)
        }
        let ordered = events.ordered(endingAt: end)
        let started = Date(timeIntervalSince1970: Double(zeroNs == Int64.max ? 0 : zeroNs) / 1e9)
        let manifest = CaptureManifest(sessionId: roomName.flatMap { $0.isEmpty ? nil : $0 } ?? directory.lastPathComponent,
                                       startedAt: PlatformDocument.rfc3339(started),
                                       participants: spans.keys.sorted().map { Participant(id: $0, name: names[$0] ?? $0) },
                                       tracks: tracks, events: ordered)
        return ImportedCapture(manifest: manifest, media: media, warnings: warnings, platform: "livekit")
    }

    private static func kind(ofFile name: String) -> String {
        name.lowercased().hasSuffix(".ogg") || name.lowercased().hasSuffix(".mka") ? "audio" : "video"
    }
}
