import Foundation

extension JanusCaptureImports {
    /// The room's recordings through Janus's importer. Until `StageMixImport.JanusImport` is in main,
    /// a room with recordings is recorded as failed with this error; then this body becomes:
    ///
    ///     let capture = try JanusImport(directory: recordings.directory, events: recordings.events,
    ///                                   room: recordings.room, stage: nil).write(into: staging)
    ///     try capture.write(into: staging, copyMedia: false)
    static let recordings: JanusCaptureImport = { _, _ in
        throw ImporterMissing()
    }

    struct ImporterMissing: Error, CustomStringConvertible {
        var description: String { "this build of stagemix has no Janus importer (StageMixImport.JanusImport)" }
    }
}
