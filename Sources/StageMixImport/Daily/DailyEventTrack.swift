import StageMixCapture

/// One track as a Daily event JSON tells it: the events of one `trackSessionNum` in one file, in time
/// order. Its pauses run from a `track-paused` (or a `track-added` with `paused: true`) to the next
/// `track-resumed`, or else to its `track-removed`, or to the end of its file.
struct DailyEventTrack: Sendable {
    var group: String
    var number: Int64
    var participant: String?
    var source: TrackSource?
    var displayName: String?
    /// The file, as `recording-media-started`'s `uri` names it (no extension).
    var uri: String?
    var mediaStartMs: Int64?
    var addedMs: Int64?
    var removedMs: Int64?
    var pauses: [ClosedRange<Int64>] = []
    var document: String

    /// The tracks the events tell of, in the order of their first events.
    static func tracks(from events: [DailyEvent]) -> [DailyEventTrack] {
        var order: [String] = []
        var byKey: [String: [DailyEvent]] = [:]
        for event in events {
            let key = "\(event.group)#\(event.trackSessionNum)"
            if byKey[key] == nil { order.append(key) }
            byKey[key, default: []].append(event)
        }
        return order.map { key in
            // A stable sort: events at one instant keep the order they were written in.
            let events = byKey[key]!.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
            return DailyEventTrack(events)
        }
    }

    private init(_ events: [DailyEvent]) {
        group = events[0].group
        number = events[0].trackSessionNum
        document = events[0].document
        var pausedAt: Int64?
        var seen = Set<String>()
        for event in events {
            // The same event saved twice (a whole file and its lines) counts once.
            guard seen.insert("\(event.type) \(event.atMs)").inserted else { continue }
            participant = participant ?? event.participant
            if let name = event.displayName { displayName = name }
            switch event.type {
            case "track-added":
                addedMs = addedMs ?? event.atMs
                source = source ?? event.source
                if event.paused == true, pausedAt == nil { pausedAt = event.atMs }
            case "recording-media-started":
                uri = uri ?? event.uri
                mediaStartMs = mediaStartMs ?? event.mediaStartMs
                source = source ?? event.source
            case "track-paused":
                if pausedAt == nil { pausedAt = event.atMs }
            case "track-resumed":
                if let from = pausedAt { pauses.append(from...max(from, event.atMs)) }
                pausedAt = nil
            case "track-removed", "recording-media-finished":
                removedMs = max(removedMs ?? event.atMs, event.atMs)
                if let from = pausedAt { pauses.append(from...max(from, event.atMs)) }
                pausedAt = nil
            default:
                break
            }
        }
        if let from = pausedAt { pauses.append(from...Int64.max / 4) }
    }
}
