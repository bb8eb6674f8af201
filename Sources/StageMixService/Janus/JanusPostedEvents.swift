import StageMixJSON
import StageMixQueue

/// A body Janus's sample event handler posted (one event, or an array of them when it groups), read
/// into the events a room keeps: the VideoRoom's own (type 64 of `janus.plugin.videoroom` naming a
/// room), and of the handles' events those the importer reads (type 16 `hangup`, type 32 media), which
/// the store ties to a room through the handle's join. Everything else Janus reports (sessions,
/// transports, ICE, other plugins) is dropped here.
struct JanusPostedEvents {
    var events: [JanusRoomEvent] = []
    /// Values that were not events a room keeps.
    var dropped = 0

    /// Reads a body; a body that is not JSON, or neither an object nor an array, is an error.
    static func parse(_ bytes: [UInt8]) throws(Problem) -> JanusPostedEvents {
        let value: JSONValue
        do {
            value = try JSONTextParser.parse(bytes)
        } catch {
            throw Problem.malformed("the body is not JSON: \("\(error)".prefix(200))")
        }
        let items: [JSONValue]
        switch value {
        case .array(let array): items = array
        case .object: items = [value]
        default: throw Problem.malformed("the body must be an event object or an array of them, not \(value.kind)")
        }
        var posted = JanusPostedEvents()
        for item in items {
            if let event = event(item) {
                posted.events.append(event)
            } else {
                posted.dropped += 1
            }
        }
        return posted
    }

    static func event(_ value: JSONValue) -> JanusRoomEvent? {
        guard case .object(let object) = value, let type = integer(object["type"]), case .object(let body)? = object["event"] else { return nil }
        let emitter: String = if case .string(let name)? = object["emitter"] { name } else { "" }
        let timestamp = integer(object["timestamp"]) ?? 0
        let handle = identifier(object["handle_id"])
        func kept(_ kind: JanusRoomEvent.Kind, room: String? = nil, publisher: String? = nil) -> JanusRoomEvent {
            JanusRoomEvent(kind: kind, emitter: emitter, room: room, publisher: publisher, handle: handle, timestampUs: timestamp, text: value.jsonText)
        }
        switch type {
        case 64:
            guard case .string("janus.plugin.videoroom")? = body["plugin"], case .object(let data)? = body["data"],
                  let room = identifier(data["room"]) else { return nil }
            // Most events say what happened under `event`; some (`talking`, and `destroyed` as participants see it) under `videoroom`.
            let name: String? = if case .string(let s)? = data["event"] { s } else if case .string(let s)? = data["videoroom"] { s } else { nil }
            let kind: JanusRoomEvent.Kind = switch name {
            case "joined": .joined
            case "published": .published
            case "unpublished": .unpublished
            case "leaving", "kicked": .left
            case "destroyed": .destroyed
            default: .other
            }
            return kept(kind, room: room, publisher: identifier(data["id"]))
        case 16:
            guard handle != nil, case .string("hangup")? = body["connection"] else { return nil }
            return kept(.hangup)
        case 32:
            guard handle != nil else { return nil }
            return kept(.other)
        default:
            return nil
        }
    }

    /// An integer member, from a JSON number written as one.
    private static func integer(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value else { return nil }
        return Int64(number.text) ?? number.integer.map(Int64.init)
    }

    /// An id Janus writes as a number (or, with `string_ids`, as a string), as text.
    private static func identifier(_ value: JSONValue?) -> String? {
        switch value {
        case .number(let number)?: number.text
        case .string(let text)?: text.isEmpty ? nil : text
        default: nil
        }
    }
}
