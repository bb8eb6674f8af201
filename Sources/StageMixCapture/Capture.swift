public import Foundation
public import StageMixJSON
public import StageMixStorage

/// A recorded livestream session: a validated `session.json`, from a capture folder or any other
/// ``CaptureSource``. Every capture has passed the contract's rules; there is no unchecked way to make one.
///
/// Media files are not opened here; `directory` plus each layer's relative `file` locates them.
public struct Capture: Sendable, Hashable {
    /// The capture directory (absolute).
    public var directory: URL
    public var sessionId: String
    /// The session clock's zero.
    public var startedAt: Date
    /// Publishing rights per role name; `nil` means every participant may publish everything.
    public var roles: [String: Role]?
    public var participants: [Participant]
    public var tracks: [Track]
    /// In the manifest's order, which is non-decreasing in `atMs`.
    public var events: [SessionEvent]
    /// Problems that do not stop composition (deprecated mode names, ...).
    public var warnings: [JSONProblem]
    /// For a capture in object storage (``CaptureBucket``): its prefix as listed, read by ranged GETs.
    /// `directory` is then the prefix's `s3://` URL.
    public internal(set) var objects: StoredObjects?
    /// `import.json` beside `session.json`, when an importer made the capture (``ImportNote``).
    public internal(set) var importNote: ImportNote?
    /// For a capture still being recorded, read as known so far (``CaptureInProgress/knownSoFar``): its
    /// `recording.completeToMs`, where its events are made to end for now. Nil for a finished capture.
    public internal(set) var completeToMs: Int?

    /// Checks `manifest` by every rule a `session.json` on disk is checked by (it is read through the
    /// same reader), so a capture made by an importer or a generator is as valid as one read from a
    /// folder. Media paths are relative to `directory`, as in a capture folder.
    public init(manifest: CaptureManifest, directory: URL) throws(CaptureError) {
        let data: Data
        do {
            data = try manifest.encoded()
        } catch {
            throw CaptureError(problems: [JSONProblem(file: CaptureReader.manifestName, path: "$",
                                                      expected: "a manifest that encodes as JSON", found: "\(error)")])
        }
        self = try CaptureReader.parse(data, directory: directory)
    }

    /// Unchecked: only the reader, which has checked every rule, makes a capture from parts.
    init(directory: URL, sessionId: String, startedAt: Date, roles: [String: Role]?,
                participants: [Participant], tracks: [Track], events: [SessionEvent],
                warnings: [JSONProblem] = []) {
        self.directory = directory
        self.sessionId = sessionId
        self.startedAt = startedAt
        self.roles = roles
        self.participants = participants
        self.tracks = tracks
        self.events = events
        self.warnings = warnings
    }

    /// The time of `session.ended`.
    public var durationMs: Int { events.last?.atMs ?? 0 }

    public func participant(_ id: String) -> Participant? { participants.first { $0.id == id } }
    public func track(_ id: String) -> Track? { tracks.first { $0.id == id } }
    /// Absolute location of a capture-relative media path in a capture folder.
    public func mediaURL(_ relativePath: String) -> URL { directory.appendingPathComponent(relativePath) }

    /// Where a capture-relative media path is: a file of the folder, or an object of the bucket.
    public func media(_ relativePath: String) -> MediaLocation {
        objects.map { .object(relativePath: relativePath, in: $0) } ?? .file(mediaURL(relativePath))
    }

    /// Throws the object store's error if a read of this capture's media failed for good: a pass that
    /// read media (speakers, probe, preview) calls it after, so that a store out of reach is never taken
    /// for silent microphones or missing pictures.
    public func checkStorage() throws(S3Error) {
        if let failure = objects?.failure { throw failure }
    }

}
