import StageMixJSON

/// What happened in one VideoRoom room, from Janus's events: who joined (by VideoRoom id and
/// display name), when each publisher published and stopped, paused media, and when the room was
/// destroyed. Tolerates what Janus 1.1.2 really sends: two `unpublished` for one unpublish,
/// `unpublished` and `leaving` without a display name or handle, a `leaving` with no `unpublished`
/// before it, a WebRTC `hangup` that names only the handle, and every other kind of event.
struct JanusRoomHistory: Sendable {
    var room: String
    var publishers: [String: JanusPublisher] = [:]
    /// Ids in the order they first appear.
    var order: [String] = []
    var firstEventUs: Int64?
    var lastEventUs: Int64?
    var destroyedUs: Int64?

    init(room: String, log: JanusEventLog) {
        self.room = room
        var handles: [String: String] = [:]
        for event in log.events {
            if let data = event.videoRoom {
                guard JanusEvent.identifier(data["room"]) == room else { continue }
                note(event.timestampUs)
                let id = JanusEvent.identifier(data["id"])
                switch event.videoRoomEvent {
                case "joined"?:
                    guard let id else { continue }
                    join(id, at: event.timestampUs, display: Self.text(data["display"]))
                    if let handle = event.handleId { handles[handle] = id }
                case "published"?:
                    guard let id else { continue }
                    join(id, at: event.timestampUs, display: Self.text(data["display"]))
                    if let handle = event.handleId { handles[handle] = id }
                    if publishers[id]?.isPublishing == false {
                        publishers[id]?.publishes.append(JanusPublisher.Publish(startUs: event.timestampUs))
                    }
                case "updated"?, "configured"?:
                    guard let id else { continue }
                    if let display = Self.text(data["display"]) { publishers[id]?.display = display }
                    if event.videoRoomEvent == "configured" { publishers[id]?.configuredUs.append(event.timestampUs) }
                case "unpublished"?:
                    if let id { stop(id, at: event.timestampUs) }
                case "leaving"?, "kicked"?:
                    guard let id else { continue }
                    stop(id, at: event.timestampUs)
                    if publishers[id] != nil && publishers[id]?.leftUs == nil { publishers[id]?.leftUs = event.timestampUs }
                case "destroyed"?:
                    destroyedUs = destroyedUs ?? event.timestampUs
                default:
                    break
                }
            } else if event.type == 16, case .string("hangup")? = event.event["connection"], let handle = event.handleId, let id = handles[handle] {
                note(event.timestampUs)
                stop(id, at: event.timestampUs)
            } else if event.type == 32, let handle = event.handleId, let id = handles[handle], publishers[id]?.isPublishing == true,
                      case .bool(let receiving)? = event.event["receiving"], let kind = Self.text(event.event["media"]) {
                note(event.timestampUs)
                let count = publishers[id]!.publishes.count
                publishers[id]!.publishes[count - 1].receiving.append((event.timestampUs, kind, receiving))
            }
        }
    }

    private mutating func note(_ us: Int64) {
        firstEventUs = min(firstEventUs ?? us, us)
        lastEventUs = max(lastEventUs ?? us, us)
    }

    private mutating func join(_ id: String, at us: Int64, display: String?) {
        if publishers[id] == nil {
            publishers[id] = JanusPublisher(id: id, display: display, joinedUs: us)
            order.append(id)
        } else if let display {
            publishers[id]?.display = display
        }
    }

    /// Ends the publish under way, if one is: a second `unpublished` for the same one is nothing.
    private mutating func stop(_ id: String, at us: Int64) {
        guard publishers[id]?.isPublishing == true else { return }
        let count = publishers[id]!.publishes.count
        publishers[id]!.publishes[count - 1].endUs = us
    }

    private static func text(_ value: JSONValue?) -> String? {
        guard case .string(let text)? = value, !text.isEmpty else { return nil }
        return text
    }

    /// The rooms the log has VideoRoom events for, in the order they first appear.
    static func rooms(in log: JanusEventLog) -> [String] {
        var rooms: [String] = []
        for event in log.events {
            if let room = event.videoRoom.flatMap({ JanusEvent.identifier($0["room"]) }), !rooms.contains(room) { rooms.append(room) }
        }
        return rooms
    }
}
