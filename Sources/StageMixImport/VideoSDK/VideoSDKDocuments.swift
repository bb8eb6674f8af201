import StageMixCapture
import StageMixJSON

/// What VideoSDK's own JSON says about a session's participant track recordings, wherever the user
/// saved it, recognised by shape (docs.videosdk.live, "Participant Track Recording", "Webhooks List",
/// the server SDK's "Track recording" object, "Get Session Details"):
///
/// - a webhook (`{"webhookType": …, "data": {…}}`): `participant-track-recording-stopped`
///   (`meetingId`, `sessionId`, `participantId`, `kind`, `fileDetails[]` with `filePath`/`fileUrl`),
///   `participant-track-recording-failed`, and `participant-joined`/`-left` (`participantName`);
/// - a track recording object (`files[]` with `fileUrl`/`filePath`, and `start`, `end`,
///   `participantName`; `participantId`, `kind`, `sessionId` when given);
/// - a session (`participants[]` with `participantId`, `name`, `timelog[]` of `start`/`end`).
///
/// Once recognised, a member of the wrong type is a problem naming the document and the member.
/// Instants may be ISO 8601 text or Unix seconds or milliseconds, numbers or strings.
struct VideoSDKDocuments {
    /// Files of one participant's kind, from a webhook or a recording object.
    struct Listing: Sendable {
        var sessionId: String?
        var participantId: String?
        var kind: VideoSDKKind?
        var files: [String]
        var startMs: Int64?
        var endMs: Int64?
        var failed = false
        var document: String
    }

    private(set) var listings: [Listing] = []
    private(set) var names: [String: String] = [:]
    /// Each participant's time in the session (`timelog`), by participant id.
    private(set) var presence: [String: [(start: Int64, end: Int64?)]] = [:]
    private(set) var problems: [JSONProblem] = []

    static let instant = "an instant (ISO 8601, or Unix seconds or milliseconds)"
    static let id = "a VideoSDK id (a string)"

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
        if case .string(let type)? = object["webhookType"], case .object(let data)? = object["data"] {
            readWebhook(type, data, at: path.key("data"), in: name, &walker)
            return nil
        }
        if case .array? = object["files"], object["start"] != nil || object["participantName"] != nil {
            readRecording(object, at: path, in: name, &walker)
            return nil
        }
        if case .array(let participants)? = object["participants"], participants.contains(where: Self.hasTimelog) {
            readSession(participants, at: path.key("participants"), &walker)
            return nil
        }
        return []
    }

    private mutating func readWebhook(_ type: String, _ data: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        switch type {
        case "participant-track-recording-stopped", "participant-track-recording-failed":
            let participant = walker.field(data, "participantId", at: path, expected: Self.id, JSONConvert.nonEmptyString)
            let session = walker.field(data, "sessionId", at: path, required: false, expected: Self.id, JSONConvert.string)
            _ = walker.field(data, "meetingId", at: path, required: false, expected: Self.id, JSONConvert.string)
            let kind = walker.field(data, "kind", at: path, expected: VideoSDKKind.expected, VideoSDKKind.init(json:))
            let failed = type == "participant-track-recording-failed"
            let files = failed && data["fileDetails"] == nil ? [] : readFiles(data, "fileDetails", at: path, &walker)
            listings.append(Listing(sessionId: session, participantId: participant, kind: kind, files: files, failed: failed, document: name))
        case "participant-joined", "participant-left":
            let participant = walker.field(data, "participantId", at: path, expected: Self.id, JSONConvert.nonEmptyString)
            let shown = walker.field(data, "participantName", at: path, required: false, expected: "the participant's name (a string)", JSONConvert.string)
            if let participant, let shown, !shown.isEmpty { names[participant] = shown }
        default:
            return
        }
    }

    /// A track recording object, as the REST API and the server SDKs return it.
    private mutating func readRecording(_ object: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        let files = readFiles(object, "files", at: path, &walker)
        let start = walker.optionalField(object, "start", at: path, expected: Self.instant, PlatformClock.instant)
        let end = walker.optionalField(object, "end", at: path, expected: Self.instant + " or null", PlatformClock.instant)
        let shown = walker.field(object, "participantName", at: path, required: false, expected: "the participant's name (a string)", JSONConvert.string)
        let participant = walker.field(object, "participantId", at: path, required: false, expected: Self.id, JSONConvert.string)
        let session = walker.field(object, "sessionId", at: path, required: false, expected: Self.id, JSONConvert.string)
        let kind = walker.field(object, "kind", at: path, required: false, expected: VideoSDKKind.expected, VideoSDKKind.init(json:))
        listings.append(Listing(sessionId: session, participantId: participant, kind: kind, files: files, startMs: start ?? nil, endMs: end ?? nil, document: name))
        if let shown, !shown.isEmpty {
            // The name belongs to the participant the object or its files' paths name.
            for id in Set([participant].compactMap { $0 } + files.compactMap { VideoSDKFilePath($0)?.participantId }) { names[id] = shown }
        }
    }

    /// `fileDetails[]` or `files[]`: each an object with `filePath` or `fileUrl`.
    private func readFiles(_ object: JSONObject, _ key: String, at path: JSONPath, _ walker: inout JSONWalker) -> [String] {
        guard let elements = walker.array(object, key, at: path, of: "files", limit: 100_000) else { return [] }
        return elements.enumerated().compactMap { i, element in
            let at = path.key(key).index(i)
            guard let file = walker.object(element, at: at, expected: "a file (an object with filePath or fileUrl)") else { return nil }
            let filePath = walker.field(file, "filePath", at: at, required: false, expected: "the file's path (a string)", JSONConvert.nonEmptyString)
            let fileUrl = walker.field(file, "fileUrl", at: at, required: false, expected: "the file's URL (a string)", JSONConvert.nonEmptyString)
            if filePath == nil, fileUrl == nil, file["filePath"] == nil, file["fileUrl"] == nil {
                walker.problem(at.key("filePath"), expected: "the file's path (filePath or fileUrl)", found: "neither")
            }
            return filePath ?? fileUrl
        }
    }

    private static func hasTimelog(_ participant: JSONValue) -> Bool {
        guard case .object(let object) = participant else { return false }
        return object["timelog"] != nil
    }

    /// A session's participants and their `timelog`.
    private mutating func readSession(_ participants: [JSONValue], at path: JSONPath, _ walker: inout JSONWalker) {
        for (i, element) in participants.prefix(100_000).enumerated() {
            let at = path.index(i)
            guard let participant = walker.object(element, at: at, expected: "a participant (an object)") else { continue }
            let id = walker.field(participant, "participantId", at: at, expected: Self.id, JSONConvert.nonEmptyString)
            let shown = walker.field(participant, "name", at: at, required: false, expected: "the participant's name (a string)", JSONConvert.string)
            let log = walker.field(participant, "timelog", at: at, default: [], expected: "an array of {start, end}", JSONConvert.array) ?? []
            guard let id else { continue }
            if let shown, !shown.isEmpty, names[id] == nil { names[id] = shown }
            for (j, entry) in log.prefix(10_000).enumerated() {
                let entryPath = at.key("timelog").index(j)
                guard let span = walker.object(entry, at: entryPath, expected: "{start, end}") else { continue }
                let start = walker.field(span, "start", at: entryPath, expected: Self.instant, PlatformClock.instant)
                let end = walker.optionalField(span, "end", at: entryPath, expected: Self.instant + " or null", PlatformClock.instant)
                if let start { presence[id, default: []].append((start, end ?? nil)) }
            }
        }
    }
}

/// A VideoSDK track recording's `kind`, as its API and its folder names write it.
enum VideoSDKKind: String, Sendable, CaseIterable {
    case audio, video
    case screenAudio = "screen_audio"
    case screenVideo = "screen_video"

    static let expected = "audio, video, screen_audio or screen_video"

    init?(json value: JSONValue) {
        guard case .string(let text) = value else { return nil }
        self.init(rawValue: text)
    }

    var source: TrackSource {
        switch self {
        case .audio: .microphone
        case .video: .camera
        case .screenAudio: .screenShareAudio
        case .screenVideo: .screenShare
        }
    }
}
