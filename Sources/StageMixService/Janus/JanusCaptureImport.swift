import Foundation

/// What a room's import is given: Janus's recordings folder, the room's events as JSON lines, the room.
struct JanusRoomRecordings: Sendable {
    var directory: URL
    var events: URL
    var room: String
}

/// Turns a room's recordings into a capture written into `staging` (media, `session.json`,
/// `import.json`); throws if there is nothing to compose or it cannot. Behind a closure so that the
/// service's room handling is tested with a stand-in, and the one call into `StageMixImport` stays in
/// one file (``JanusCaptureImports/recordings``).
typealias JanusCaptureImport = @Sendable (_ recordings: JanusRoomRecordings, _ staging: URL) throws -> Void

enum JanusCaptureImports {
    /// A capture folder's files copied as the import's result, whatever the room, with the events the
    /// import was given beside them as `janus-events.jsonl` (`--janus-import-stand-in`, for tests).
    static func standIn(copying capture: URL) -> JanusCaptureImport {
        { recordings, staging in
            let fm = FileManager.default
            for name in try fm.contentsOfDirectory(atPath: capture.path) {
                try fm.copyItem(at: capture.appendingPathComponent(name), to: staging.appendingPathComponent(name))
            }
            try fm.copyItem(at: recordings.events, to: staging.appendingPathComponent("janus-events.jsonl"))
        }
    }
}
