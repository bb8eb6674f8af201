import StageMixJSON
/// One element of `events` as far as it could be read: what the sequence checks need even when
/// some of its fields are broken.
struct EventRecord {
    var index: Int
    var atMs: Int?
    /// The `type` string when it is one of the contract's types.
    var type: String?
    /// The decoded event when every field is well-formed.
    var event: SessionEvent?
    /// For a malformed event whose participant or track can still be read, its effect on the
    /// session's state, so later events are not reported only because this one was broken.
    var standIn: SessionEvent.Action?
}

extension ManifestDecoder {
    static let eventTypes = [
        "participant.joined", "participant.left", "participant.mode_changed", "participant.pinned",
        "participant.unpinned", "participant.role_changed", "track.published", "track.unpublished",
        "track.muted", "track.unmuted", "track.stream_state", "track.subscription_permission",
        "pubsub.message", "session.ended",
    ]

    /// `nil` when `events` is not an array at all.
    mutating func decodeEvents(_ document: JSONObject, at root: JSONPath) -> [EventRecord]? {
        guard let elements = walker.array(document, "events", at: root, of: "events", limit: CaptureLimits.maxEvents) else { return nil }
        let path = root.key("events")
        return elements.enumerated().map { i, element in
            var record = EventRecord(index: i)
            let itemPath = path.index(i)
            guard let object = walker.object(element, at: itemPath) else { return record }
            record.atMs = walker.field(object, "atMs", at: itemPath, expected: Self.offsetExpected, JSONConvert.integer(in: CaptureLimits.atMs))
            let typeDescription = "one of " + Self.eventTypes.map { "\"\($0)\"" }.joined(separator: ", ")
            record.type = walker.field(object, "type", at: itemPath, expected: typeDescription) {
                JSONConvert.string($0).flatMap { Self.eventTypes.contains($0) ? $0 : nil }
            }
            guard let type = record.type else { return record }
            let action = decodeAction(type, object, at: itemPath)
            if let action, let atMs = record.atMs {
                record.event = SessionEvent(atMs: atMs, action)
            } else {
                record.standIn = action ?? Self.standIn(type, object)
            }
            return record
        }
    }

    private mutating func decodeAction(_ type: String, _ object: JSONObject, at path: JSONPath) -> SessionEvent.Action? {
        switch type {
        case "participant.joined":
            let participantId = participantField(object, at: path)
            let mode = modeField(object, at: path)
            let role = walker.field(object, "role", at: path, required: false, expected: "a role name", JSONConvert.nonEmptyString)
            if object["role"] != nil, role == nil { return nil }
            guard let participantId, let mode else { return nil }
            return .participantJoined(participantId: participantId, mode: mode, role: role)
        case "participant.left":
            return participantField(object, at: path).map { .participantLeft(participantId: $0) }
        case "participant.mode_changed":
            let participantId = participantField(object, at: path)
            let mode = modeField(object, at: path)
            guard let participantId, let mode else { return nil }
            return .modeChanged(participantId: participantId, mode: mode)
        case "participant.pinned":
            return participantField(object, at: path).map { .pinned(participantId: $0) }
        case "participant.unpinned":
            return participantField(object, at: path).map { .unpinned(participantId: $0) }
        case "participant.role_changed":
            let participantId = participantField(object, at: path)
            let role = walker.field(object, "role", at: path, expected: "a role name", JSONConvert.nonEmptyString)
            let forced = walker.field(object, "forced", at: path, expected: "true or false", JSONConvert.bool)
            guard let participantId, let role, let forced else { return nil }
            return .roleChanged(participantId: participantId, role: role, forced: forced)
        case "track.published":
            return trackField(object, at: path).map { .trackPublished(trackId: $0) }
        case "track.unpublished":
            return trackField(object, at: path).map { .trackUnpublished(trackId: $0) }
        case "track.muted":
            return trackField(object, at: path).map { .trackMuted(trackId: $0) }
        case "track.unmuted":
            return trackField(object, at: path).map { .trackUnmuted(trackId: $0) }
        case "track.stream_state":
            let trackId = trackField(object, at: path)
            let state = walker.field(object, "state", at: path, expected: "\"active\" or \"paused\"",
                                     JSONConvert.enumeration(SessionEvent.StreamState.self))
            guard let trackId, let state else { return nil }
            return .streamState(trackId: trackId, state: state)
        case "track.subscription_permission":
            let trackId = trackField(object, at: path)
            let allowed = walker.field(object, "allowed", at: path, expected: "true or false", JSONConvert.bool)
            guard let trackId, let allowed else { return nil }
            return .subscriptionPermission(trackId: trackId, allowed: allowed)
        case "pubsub.message":
            return pubSubMessage(object, at: path).map { .pubsub($0) }
        case "session.ended":
            return .sessionEnded
        default:
            return nil
        }
    }

    /// The state change of a malformed event, with placeholders for its broken fields.
    private static func standIn(_ type: String, _ object: JSONObject) -> SessionEvent.Action? {
        let participant = object["participantId"].flatMap(JSONConvert.nonEmptyString)
        let track = object["trackId"].flatMap(JSONConvert.nonEmptyString)
        switch type {
        case "participant.joined": return participant.map { .participantJoined(participantId: $0, mode: .signallingOnly, role: nil) }
        case "participant.left": return participant.map { .participantLeft(participantId: $0) }
        case "track.published": return track.map { .trackPublished(trackId: $0) }
        case "track.unpublished": return track.map { .trackUnpublished(trackId: $0) }
        default: return nil
        }
    }

    private mutating func pubSubMessage(_ object: JSONObject, at path: JSONPath) -> PubSubMessage? {
        let topic = walker.field(object, "topic", at: path, expected: "a non-empty string", JSONConvert.nonEmptyString)
        let senderId = walker.field(object, "senderId", at: path, expected: "a participant id", JSONConvert.nonEmptyString)
        let message = walker.field(object, "message", at: path, required: false, expected: "a string", JSONConvert.string)
        var payload: [String: String] = [:]
        var wellFormed = (object["message"] == nil || message != nil)
        if let value = object["payload"] {
            if let members = walker.object(value, at: path.key("payload")) {
                for (key, value) in members.members where payload[key] == nil {
                    if case .string(let s) = value { payload[key] = s } else { payload[key] = value.jsonText }
                }
                wellFormed = wellFormed && members.duplicateKeys.isEmpty
            } else {
                wellFormed = false
            }
        }
        guard let topic, let senderId, wellFormed else { return nil }
        return PubSubMessage(topic: topic, senderId: senderId, message: message, payload: payload)
    }

    private mutating func participantField(_ object: JSONObject, at path: JSONPath) -> String? {
        walker.field(object, "participantId", at: path, expected: "a participant id", JSONConvert.nonEmptyString)
    }

    private mutating func trackField(_ object: JSONObject, at path: JSONPath) -> String? {
        walker.field(object, "trackId", at: path, expected: "a track id", JSONConvert.nonEmptyString)
    }

    /// A mode through `ParticipantMode.parse`; a deprecated spelling is a warning, not a problem.
    private mutating func modeField(_ object: JSONObject, at path: JSONPath) -> ParticipantMode? {
        let expected = "\"SEND_AND_RECV\" or \"SIGNALLING_ONLY\""
        guard let parsed = walker.field(object, "mode", at: path, expected: expected + " (or the deprecated \"CONFERENCE\"/\"VIEWER\")",
                                        { JSONConvert.string($0).flatMap(ParticipantMode.parse) }) else { return nil }
        if parsed.deprecated, case .string(let text)? = object["mode"] {
            walker.warning(path.key("mode"), expected: expected,
                           found: "the deprecated \"\(text)\", read as \"\(parsed.mode.rawValue)\"")
        }
        return parsed.mode
    }
}
