import StageMixJSON

/// What 100ms's own JSON says about a session's track recordings, wherever the user saved it,
/// recognised by shape (100ms docs, "Webhook Events", "Track Events", "Recording assets"):
///
/// - a webhook (`{"type": …, "data": {…}, "timestamp": …}`) of type `track.recording.success`,
///   `track.recording.failure` or `track.recording.started.success` (`peer_id`, `track_id`,
///   `stream_id`, `track_type`, `duration` s, `recording_path`), `peer.join.success` /
///   `peer.leave.success` (`user_name`, `joined_at`, `left_at`), or `session.close.success`;
/// - an analytics track event of the same envelope, `track.add.success`, `track.update.success` or
///   `track.remove.success` (`source` regular or screen, `mute`, `started_at`, `stopped_at`);
/// - a recording asset of type `track` (`path`, `duration`, `metadata.track_id`, `metadata.peer_id`).
///
/// Once recognised, a member of the wrong type is a problem naming the document and the member.
/// Instants may be ISO 8601 text or Unix seconds or milliseconds, numbers or strings.
struct HundredMsDocuments {
    /// A recorded track's file, from a `track.recording.*` webhook or a track asset.
    struct Recording: Sendable {
        var trackId: String
        var peerId: String
        var sessionId: String?
        var streamId: String?
        var isVideo: Bool
        var path: String?
        var durationMs: Int64?
        /// The webhook's envelope time (when 100ms sent it), or an asset's `created_at`.
        var sentMs: Int64?
        /// `error_message` of a `track.recording.failure`.
        var failure: String?
        var document: String
    }

    struct Peer: Sendable {
        var userName: String?
        var joinedMs: Int64?
        var leftMs: Int64?
    }

    /// A `track.add|update|remove.success` analytics event.
    struct TrackEvent: Sendable {
        var trackId: String
        var peerId: String?
        var isScreen: Bool?
        var mute: Bool?
        var atMs: Int64?
        var startedMs: Int64?
        var stoppedMs: Int64?
        var userName: String?
    }

    private(set) var recordings: [Recording] = []
    /// `track.recording.started.success` envelope times, by track id.
    private(set) var recordingStarts: [String: Int64] = [:]
    private(set) var peers: [String: Peer] = [:]
    private(set) var trackEvents: [TrackEvent] = []
    /// `session_stopped_at` of `session.close.success`, by session id.
    private(set) var sessionEnds: [String: Int64] = [:]
    private(set) var problems: [JSONProblem] = []

    static let instant = "an instant (ISO 8601, or Unix seconds or milliseconds)"

    init(_ documents: [FoundDocument]) {
        for document in documents {
            var walker = document.walker()
            DocumentWalk.objects(in: .object(document.object), at: document.root) { object, path in
                recognise(object, at: path, in: document.name, &walker)
            }
            problems += walker.problems
        }
    }

    /// One object of a document (``DocumentWalk``): what of it is this platform's; nil when it was read whole,
    /// else the members not to look into.
    private mutating func recognise(_ object: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) -> Set<String>? {
        if case .string(let type)? = object["type"] {
            if case .object(let data)? = object["data"], Self.eventTypes.contains(type) {
                read(type, data, at: path.key("data"), envelope: object, at: path, in: name, &walker)
                return nil
            }
            if type == "track", case .object? = object["metadata"], object["path"] != nil {
                readAsset(object, at: path, in: name, &walker)
                return nil
            }
        }
        return []
    }

    static let eventTypes: Set<String> = [
        "track.recording.success", "track.recording.failure", "track.recording.started.success",
        "peer.join.success", "peer.leave.success", "session.close.success",
        "track.add.success", "track.update.success", "track.remove.success",
    ]

    private mutating func read(_ type: String, _ data: JSONObject, at path: JSONPath, envelope: JSONObject, at envelopePath: JSONPath,
                               in name: String, _ walker: inout JSONWalker) {
        let sent = walker.field(envelope, "timestamp", at: envelopePath, required: false, expected: Self.instant, PlatformClock.instant)
        let id = "a 100ms id (a string)"
        switch type {
        case "track.recording.success", "track.recording.failure":
            let trackId = walker.field(data, "track_id", at: path, expected: id, JSONConvert.nonEmptyString)
            let peerId = walker.field(data, "peer_id", at: path, expected: id, JSONConvert.nonEmptyString)
            let session = walker.field(data, "session_id", at: path, required: false, expected: id, JSONConvert.string)
            let stream = walker.field(data, "stream_id", at: path, required: false, expected: id, JSONConvert.string)
            let kind = walker.field(data, "track_type", at: path, expected: "audio or video", Self.trackType)
            let recordingPath = walker.field(data, "recording_path", at: path, required: false, expected: "the file's path (a string)", JSONConvert.string)
            let url = walker.field(data, "recording_presigned_url", at: path, required: false, expected: "the file's URL (a string)", JSONConvert.string)
            let duration = walker.field(data, "duration", at: path, required: false, expected: "seconds (a number or a string)", PlatformClock.seconds)
            _ = walker.field(data, "size", at: path, required: false, expected: "bytes (a number or a string)", PlatformClock.integer)
            let failure = type == "track.recording.failure"
                ? walker.field(data, "error_message", at: path, default: "failed", expected: "a string", JSONConvert.string) : nil
            if type == "track.recording.success", recordingPath == nil, url == nil {
                walker.problem(path.key("recording_path"), expected: "the recorded file's path (recording_path or recording_presigned_url)", found: "neither")
            }
            guard let trackId, let peerId, let kind else { return }
            recordings.append(Recording(trackId: trackId, peerId: peerId, sessionId: session, streamId: stream, isVideo: kind,
                                        path: recordingPath.flatMap { $0.isEmpty ? nil : $0 } ?? url, durationMs: duration, sentMs: sent,
                                        failure: failure, document: name))
        case "track.recording.started.success":
            let trackId = walker.field(data, "track_id", at: path, expected: id, JSONConvert.nonEmptyString)
            if let trackId, let sent { recordingStarts[trackId] = min(recordingStarts[trackId] ?? sent, sent) }
        case "peer.join.success", "peer.leave.success":
            let peerId = walker.field(data, "peer_id", at: path, expected: id, JSONConvert.nonEmptyString)
            let userName = walker.field(data, "user_name", at: path, required: false, expected: "the user's name (a string)", JSONConvert.string)
            let joined = walker.field(data, "joined_at", at: path, required: false, expected: Self.instant, PlatformClock.instant)
            let left = type == "peer.leave.success"
                ? walker.field(data, "left_at", at: path, required: false, expected: Self.instant, PlatformClock.instant) ?? sent : nil
            guard let peerId else { return }
            var peer = peers[peerId] ?? Peer()
            if let userName, !userName.isEmpty { peer.userName = userName }
            if let joined = joined ?? (type == "peer.join.success" ? sent : nil) { peer.joinedMs = min(peer.joinedMs ?? joined, joined) }
            if let left { peer.leftMs = max(peer.leftMs ?? left, left) }
            peers[peerId] = peer
        case "session.close.success":
            let session = walker.field(data, "session_id", at: path, expected: id, JSONConvert.nonEmptyString)
            let stopped = walker.field(data, "session_stopped_at", at: path, required: false, expected: Self.instant, PlatformClock.instant) ?? sent
            if let session, let stopped { sessionEnds[session] = stopped }
        default:  // track.add|update|remove.success
            let trackId = walker.field(data, "track_id", at: path, expected: id, JSONConvert.nonEmptyString)
            let peerId = walker.field(data, "peer_id", at: path, required: false, expected: id, JSONConvert.string)
            let source = walker.field(data, "source", at: path, required: false, expected: "regular or screen", JSONConvert.string)
            let mute = walker.field(data, "mute", at: path, required: false, expected: "true or false", JSONConvert.bool)
            let started = walker.field(data, "started_at", at: path, required: false, expected: Self.instant, PlatformClock.instant)
            let stopped = walker.field(data, "stopped_at", at: path, required: false, expected: Self.instant, PlatformClock.instant)
            let userName = walker.field(data, "user_name", at: path, required: false, expected: "the user's name (a string)", JSONConvert.string)
            _ = walker.field(data, "type", at: path, required: false, expected: "audio or video", Self.trackType)
            guard let trackId else { return }
            trackEvents.append(TrackEvent(trackId: trackId, peerId: peerId, isScreen: source.map { $0 == "screen" }, mute: mute,
                                          atMs: type == "track.add.success" ? (started ?? sent) : type == "track.remove.success" ? (stopped ?? sent) : sent,
                                          startedMs: started, stoppedMs: stopped, userName: userName))
        }
    }

    /// A recording asset of type `track` (the Recording Assets API).
    private mutating func readAsset(_ asset: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        let metadataPath = path.key("metadata")
        guard let metadata = walker.object(asset["metadata"]!, at: metadataPath) else { return }
        let id = "a 100ms id (a string)"
        let trackId = walker.field(metadata, "track_id", at: metadataPath, expected: id, JSONConvert.nonEmptyString)
        let peerId = walker.field(metadata, "peer_id", at: metadataPath, expected: id, JSONConvert.nonEmptyString)
        let stream = walker.field(metadata, "stream_id", at: metadataPath, required: false, expected: id, JSONConvert.string)
        let kind = walker.field(metadata, "track_type", at: metadataPath, expected: "audio or video", Self.trackType)
        let filePath = walker.field(asset, "path", at: path, expected: "the file's path (a string)", JSONConvert.string)
        let session = walker.field(asset, "session_id", at: path, required: false, expected: id, JSONConvert.string)
        let duration = walker.field(asset, "duration", at: path, required: false, expected: "seconds (a number or a string)", PlatformClock.seconds)
        let created = walker.field(asset, "created_at", at: path, required: false, expected: Self.instant, PlatformClock.instant)
        let status = walker.field(asset, "status", at: path, required: false, expected: "completed or failed", JSONConvert.string)
        guard let trackId, let peerId, let kind, let filePath else { return }
        recordings.append(Recording(trackId: trackId, peerId: peerId, sessionId: session, streamId: stream, isVideo: kind, path: filePath,
                                    durationMs: duration, sentMs: created, failure: status == "failed" ? "status failed" : nil, document: name))
    }

    /// `track_type`: true for video.
    static func trackType(_ value: JSONValue) -> Bool? {
        switch value {
        case .string("video"): true
        case .string("audio"): false
        default: nil
        }
    }
}
