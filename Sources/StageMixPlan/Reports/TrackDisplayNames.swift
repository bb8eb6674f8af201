public import StageMixCapture

/// What the plan's text calls each track: the name its platform gave it, where an import recorded one
/// (Twilio's `track_name`, in the capture's `import.json`), else its id. Ids such as Twilio's recording
/// sids (`RT` and 32 hex digits) say nothing to a reader; the names are what the room called its tracks.
public struct TrackDisplayNames: Sendable {
    private var names: [String: String]

    public init(_ names: [String: String] = [:]) { self.names = names }

    /// From the capture's `import.json`, if it names its tracks.
    public init(capture: Capture) {
        var names: [String: String] = [:]
        for (id, fields) in capture.importNote?.tracks ?? [:] {
            if let name = fields["track_name"], !name.isEmpty, capture.track(id) != nil { names[id] = name }
        }
        self.names = names
    }

    public func name(of trackId: String) -> String { names[trackId] ?? trackId }
}
