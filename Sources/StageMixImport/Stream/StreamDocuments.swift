import StageMixJSON

/// What Stream's (GetStream's) own JSON says about a call's individual recordings, wherever the user
/// saved it, recognised by shape:
///
/// - a `call_recording` object (the `call.recording_ready` webhook, one per file), or each element of
///   a `recordings` array (the ListRecordings response): `filename`, `url`, `start_time`,
///   `end_time`, `session_id`, `recording_type`;
/// - a `user` object with an `id` (call session participant events, call members, any user response):
///   the user's `name`;
/// - `call.session_participant_joined` / `_left` events: when a user joined (`participant.joined_at`,
///   else `created_at`) and left (`created_at`);
/// - `call.recording_failed` events, reported.
///
/// Once recognised, a member of the wrong type is a problem naming the document and the member.
/// Instants may be ISO 8601 text (as Stream writes them) or Unix milliseconds, numbers or digits.
struct StreamDocuments {
    struct Recording: Sendable {
        var filename: String
        var url: String?
        var startMs: Int64?
        var endMs: Int64?
        var sessionId: String?
        var recordingType: String?
        var document: String
    }

    private(set) var recordings: [Recording] = []
    private(set) var names: [String: String] = [:]
    private(set) var joins: [String: Int64] = [:]
    private(set) var leaves: [String: Int64] = [:]
    private(set) var failures: [String] = []
    private(set) var callId: String?
    private(set) var problems: [JSONProblem] = []

    static let instant = "an instant (ISO 8601 text, or Unix milliseconds as a number or a string of digits)"

    static func instant(_ value: JSONValue) -> Int64? { PlatformClock.isoMs(value) ?? PlatformClock.unixMs(value) }

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
        if callId == nil, case .string(let cid)? = object["call_cid"], !cid.isEmpty { callId = cid }
        if let recording = object["call_recording"] {
            readRecording(recording, at: path.key("call_recording"), in: name, &walker)
        }
        if case .array(let list)? = object["recordings"] {
            for (i, element) in list.prefix(100_000).enumerated() { readRecording(element, at: path.key("recordings").index(i), in: name, &walker) }
        }
        if case .object(let user)? = object["user"], user["id"] != nil { readUser(user, at: path.key("user"), &walker) }
        if case .string(let type)? = object["type"] { readEvent(type, object, at: path, in: name, &walker) }
        return ["call_recording", "recordings"]
    }

    private mutating func readRecording(_ value: JSONValue, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        guard let entry = walker.object(value, at: path, expected: "a recording (an object with filename, url, start_time, end_time)") else { return }
        let filename = walker.field(entry, "filename", at: path, expected: "the file's name (a string)", JSONConvert.nonEmptyString)
        let url = walker.field(entry, "url", at: path, required: false, expected: "the file's URL (a string)", JSONConvert.string)
        let start = walker.field(entry, "start_time", at: path, required: false, expected: Self.instant, Self.instant)
        let end = walker.field(entry, "end_time", at: path, required: false, expected: Self.instant, Self.instant)
        let session = walker.field(entry, "session_id", at: path, required: false, expected: "the call session's id (a string)", JSONConvert.string)
        let type = walker.field(entry, "recording_type", at: path, required: false, expected: "composite, individual or raw (a string)", JSONConvert.string)
        guard let filename else { return }
        recordings.append(Recording(filename: filename, url: url.flatMap { $0.isEmpty ? nil : $0 }, startMs: start, endMs: end,
                                    sessionId: session, recordingType: type, document: name))
    }

    private mutating func readUser(_ user: JSONObject, at path: JSONPath, _ walker: inout JSONWalker) {
        let id = walker.field(user, "id", at: path, expected: "the user's id (a string)", JSONConvert.nonEmptyString)
        let name = walker.field(user, "name", at: path, required: false, expected: "the user's name (a string)", JSONConvert.string)
        if let id, let name, !name.isEmpty, names[id] == nil { names[id] = name }
    }

    private mutating func readEvent(_ type: String, _ event: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        switch type {
        case "call.session_participant_joined", "call.session_participant_left":
            let created = walker.field(event, "created_at", at: path, required: false, expected: Self.instant, Self.instant)
            guard let participant = walker.field(event, "participant", at: path, expected: "the participant (an object)", { value -> JSONObject? in
                if case .object(let object) = value { return object } else { return nil }
            }) else { return }
            let at = path.key("participant")
            let joined = walker.field(participant, "joined_at", at: at, required: false, expected: Self.instant, Self.instant)
            guard case .object(let user)? = participant["user"], case .string(let id)? = user["id"], !id.isEmpty else {
                walker.problem(at.key("user").key("id"), expected: "the user's id (a string)", found: walker.found(participant["user"] ?? .null))
                return
            }
            if type.hasSuffix("joined"), let when = joined ?? created { joins[id] = min(joins[id] ?? when, when) }
            if type.hasSuffix("left"), let when = created { leaves[id] = max(leaves[id] ?? when, when) }
        case "call.recording_failed":
            let created = walker.field(event, "created_at", at: path, required: false, expected: Self.instant, Self.instant)
            let kind = walker.field(event, "recording_type", at: path, required: false, expected: "composite, individual or raw (a string)", JSONConvert.string)
            failures.append("\(name): call.recording_failed\(kind.map { " (\($0))" } ?? "")\(created.map { " at \(PlatformClock.rfc3339($0))" } ?? ""); "
                            + "Stream names no file, so what it lost shows only as a file missing below, if any")
        default:
            return
        }
    }
}
