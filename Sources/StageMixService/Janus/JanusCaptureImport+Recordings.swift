import Foundation
import StageMixImport

extension JanusCaptureImports {
    /// The room's recordings through Janus's importer (`stagemix import janus`): the recordings
    /// converted into the staging folder, then the capture they make written beside them, with the
    /// room's events as `janus-events.jsonl` (the capture says where it came from, can be imported
    /// again, and outlives the events' time in the database: `--janus-keep-days`).
    static let recordings: JanusCaptureImport = { recordings, staging in
        let capture = try JanusImport(directory: recordings.directory, events: recordings.events,
                                      room: recordings.room, stage: nil).write(into: staging)
        try capture.write(into: staging, copyMedia: false)
        try FileManager.default.copyItem(at: recordings.events, to: staging.appendingPathComponent("janus-events.jsonl"))
    }
}
