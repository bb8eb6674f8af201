import StageMixJSON

/// One event as Janus's HTTP event handler (`janus.eventhandler.sampleevh`) posts it:
/// `{emitter, type, subtype?, timestamp, session_id?, handle_id?, opaque_id?, event}`, with
/// `timestamp` in real-time microseconds. Only what the importer reads is kept; the VideoRoom's own
/// payload (`event.data`) is read through ``videoRoom``.
struct JanusEvent: Sendable {
    /// Janus's event types: 1 session, 2 handle, 8 JSEP, 16 WebRTC, 32 media, 64 plugin, 128 transport, 256 core.
    var type: Int
    var subtype: Int?
    var timestampUs: Int64
    var handleId: String?
    var event: JSONObject
    /// The event as it was posted, to tell a retransmission from a second event.
    var text: String

    /// Reads one posted event; nil for anything that is not one (Janus's log holds many kinds).
    init?(_ value: JSONValue) {
        guard case .object(let object) = value, let type = Self.integer(object["type"]),
              let timestamp = Self.integer(object["timestamp"]), case .object(let event)? = object["event"] else { return nil }
        self.type = Int(type)
        subtype = Self.integer(object["subtype"]).map(Int.init)
        timestampUs = timestamp
        handleId = Self.identifier(object["handle_id"])
        self.event = event
        text = value.jsonText
    }

    /// The VideoRoom's payload of a plugin event (`event.data`), with its room; nil for other plugins.
    var videoRoom: JSONObject? {
        guard type == 64, case .string("janus.plugin.videoroom")? = event["plugin"], case .object(let data)? = event["data"] else { return nil }
        return data
    }

    /// What a VideoRoom event says happened: `data.event`, or `data.videoroom` (`talking`, `destroyed`).
    var videoRoomEvent: String? {
        guard let data = videoRoom else { return nil }
        if case .string(let name)? = data["event"] { return name }
        if case .string(let name)? = data["videoroom"] { return name }
        return nil
    }

    /// An integer member, from a JSON number.
    static func integer(_ value: JSONValue?) -> Int64? {
        guard case .number(let number)? = value else { return nil }
        return Int64(number.text) ?? number.integer.map(Int64.init)
    }

    /// An id Janus writes as a number (or as a string with `string_ids`), as text.
    static func identifier(_ value: JSONValue?) -> String? {
        switch value {
        case .number(let number)?: number.text
        case .string(let text)?: text.isEmpty ? nil : text
        default: nil
        }
    }
}
