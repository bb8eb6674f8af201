public import Foundation

/// What `stagemix serve` was told about Janus (`--janus-recordings` and its companions): with it,
/// Janus's event handler is a client and each room that ends is imported and composed.
public struct JanusConfiguration: Sendable {
    /// Janus's `rec_dir` as this machine sees it.
    public var recordings: URL
    /// Where each room's composition's webhooks go; none without it.
    public var callbackURL: String?
    /// How long a room stays open with nobody publishing (or, if it never had media, with nobody in it).
    public var idleSeconds: Double
    /// How long a room's events stay in the database once the room is done (its capture keeps them).
    public var keepSeconds: Double
    /// `--janus-composition`: a JSON file with `layout` and `options` as `POST /v1/compositions` takes
    /// them, for every room's composition; without it, the defaults.
    public var composition: URL?
    /// For tests: a capture folder whose files stand in for what the importer makes of a room.
    public var importStandIn: URL?

    public init(recordings: URL, callbackURL: String? = nil, idleSeconds: Double = 60, keepSeconds: Double = 7 * 86400,
                composition: URL? = nil, importStandIn: URL? = nil) {
        self.keepSeconds = keepSeconds
        self.composition = composition
        self.recordings = recordings
        self.callbackURL = callbackURL
        self.idleSeconds = idleSeconds
        self.importStandIn = importStandIn
    }
}
