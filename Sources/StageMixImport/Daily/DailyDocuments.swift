import StageMixJSON

/// What Daily's own JSON says about a raw-tracks recording, wherever the user saved it, recognised
/// by shape:
///
/// - the `recording.ready-to-download` webhook (its `payload`), or a recording object as the REST API
///   answers it (an object with `tracks` and `start_ts`): `type`, `recording_id` (or `id`),
///   `room_name`, `start_ts` (Unix seconds), `duration` (seconds) and `tracks[]` of
///   `{type, s3Key, size}`;
/// - the recording's event JSON (`dataOutputs: ["event-json"]`), whole or one event a line: every
///   object whose `type` is a track or recording-media event (``DailyEvent``).
///
/// Once recognised, a member of the wrong type is a problem naming the document and the member.
/// Instants may be JSON numbers or strings of digits.
struct DailyDocuments {
    struct Recording: Sendable {
        var type: String?
        var id: String?
        var roomName: String?
        var startMs: Int64?
        var durationMs: Int64?
        var tracks: [ListedTrack]
        var document: String
    }

    /// One of `tracks[]`: a file Daily says it wrote.
    struct ListedTrack: Sendable {
        var type: String?
        var s3Key: String
        var size: Int64?
        var document: String
    }

    private(set) var recordings: [Recording] = []
    private(set) var events: [DailyEvent] = []
    private(set) var problems: [JSONProblem] = []

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
        if case .string("recording.ready-to-download")? = object["type"] {
            if let payload = walker.field(object, "payload", at: path, expected: "the recording (an object)", { value -> JSONObject? in
                if case .object(let payload) = value { return payload } else { return nil }
            }) {
                readRecording(payload, at: path.key("payload"), in: name, &walker)
            }
            return nil
        }
        if object["tracks"] != nil, object["start_ts"] != nil {
            readRecording(object, at: path, in: name, &walker)
            return nil
        }
        if case .string(let type)? = object["type"], DailyEvent.types.contains(type) {
            if let event = DailyEvent(object, type: type, at: path, document: name, group: file(of: name), &walker) { events.append(event) }
            return nil
        }
        return []
    }

    private mutating func readRecording(_ object: JSONObject, at path: JSONPath, in name: String, _ walker: inout JSONWalker) {
        let type = walker.field(object, "type", at: path, required: false, expected: "the recording's type (a string: raw-tracks)", JSONConvert.string)
        let id = walker.field(object, "recording_id", at: path, required: false, expected: "the recording's id (a string)", JSONConvert.string)
            ?? walker.field(object, "id", at: path, required: false, expected: "the recording's id (a string)", JSONConvert.string)
        let room = walker.field(object, "room_name", at: path, required: false, expected: "the room's name (a string)", JSONConvert.string)
        let start = walker.field(object, "start_ts", at: path, required: false, expected: "Unix seconds (a number or a string of digits)", PlatformClock.unixSeconds)
        let duration = walker.field(object, "duration", at: path, required: false, expected: "seconds (a number)", Self.seconds)
        var tracks: [ListedTrack] = []
        let listPath = path.key("tracks")
        if let list = walker.optionalField(object, "tracks", at: path, expected: "an array of the recording's tracks, or null", JSONConvert.array), let list {
            for (i, element) in list.prefix(100_000).enumerated() {
                let at = listPath.index(i)
                guard let entry = walker.object(element, at: at, expected: "a track of the recording (an object with s3Key)") else { continue }
                let key = walker.field(entry, "s3Key", at: at, expected: "the track's key in the bucket (a string)", JSONConvert.nonEmptyString)
                let trackType = walker.field(entry, "type", at: at, required: false, expected: "the track's type (a string)", JSONConvert.string)
                let size = walker.field(entry, "size", at: at, required: false, expected: "the file's size in bytes (a whole number)", PlatformClock.integer)
                if let key { tracks.append(ListedTrack(type: trackType, s3Key: key, size: size, document: name)) }
            }
        }
        recordings.append(Recording(type: type, id: id, roomName: room, startMs: start, durationMs: duration, tracks: tracks, document: name))
    }

    /// Seconds, whole or not, from a number or a string of digits, up to a week.
    static func seconds(_ value: JSONValue) -> Int64? {
        let seconds: Double?
        switch value {
        case .number(let number): seconds = Double(number.text)
        case .string(let text): seconds = Double(text)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, (0...(7 * 24 * 3600)).contains(seconds) else { return nil }
        return Int64((seconds * 1000).rounded())
    }

    /// The file a document's name is in (`events.jsonl line 3` is in `events.jsonl`): one event JSON is one recording's.
    private func file(of name: String) -> String {
        guard let cut = name.range(of: " line ", options: .backwards) else { return name }
        return String(name[..<cut.lowerBound])
    }
}
