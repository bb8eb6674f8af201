import Foundation
import StageMixCapture
import StageMixStorage

/// One `.mjr` of a followed room: read as Janus writes it (``MJRTail``), converted as it comes into a
/// media file written live (``JanusRecordingConversion``), and finished once its publish has ended and
/// the file has stopped growing. Says how far its media file is whole, so the capture is never said
/// complete past a sample it has yet to write.
final class JanusFollowedRecording {
    /// Relative to the recordings' folder, without a `.tmp` Janus may still have on it.
    let recording: String
    let name: JanusRecordingName?
    private let tail: MJRTail
    private let mediaFolder: URL
    private(set) var conversion: JanusRecordingConversion?
    /// Set once finished: what was made of it (a file or none).
    private(set) var converted: JanusConvertedRecording?
    /// Set when it is left out, saying why.
    private(set) var leftOut: String?
    /// Real time of the newest packet read (the header's `u` plus its millisecond stamp).
    private(set) var newestArrivalUs: Int64?
    /// When the file last grew, by this process's clock.
    private(set) var lastGrowth = Date()

    init(_ url: URL, recording: String, mediaFolder: URL) throws(JanusRecordingError) {
        self.recording = recording
        name = JanusRecordingName((recording as NSString).lastPathComponent)
        tail = try MJRTail(url)
        self.mediaFolder = mediaFolder
    }

    var isDone: Bool { converted != nil || leftOut != nil }
    var header: MJRHeader? { tail.header }
    /// When Janus made the recorder: the header's `s`, else the time in its name.
    var createdUs: Int64? { tail.header?.createdUs ?? name?.createdUs }

    /// Reads what Janus added, converts it and flushes the media file.
    func read() throws {
        guard !isDone else { return }
        try tail.read { record in
            guard leftOut == nil else { return }
            if conversion == nil, let header = tail.header { try start(header) }
            guard let conversion else { return }
            newestArrivalUs = conversion.header.firstPacketUs + record.arrivalMs * 1000
            try conversion.take(record)
        }
        if tail.grew { lastGrowth = Date() }
        if let why = tail.damaged, tail.header == nil { leftOut = "\(recording): \(why); left out" }
        if let header = tail.header, conversion == nil, leftOut == nil { try start(header) }
        try conversion?.flush()
    }

    /// Starts the media file; a full disk ends the import (thrown), anything else leaves the recording out.
    private func start(_ header: MJRHeader) throws {
        guard header.kind != .data else {
            leftOut = "\(recording): a data channel recording; left out"
            return
        }
        do {
            conversion = try JanusRecordingConversion(header: header, mjr: tail.file, into: mediaFolder,
                                                      baseName: JanusImport.baseName(URL(fileURLWithPath: recording)), live: true)
        } catch {
            if let full = NoSpaceLeft(error) { throw full }
            leftOut = "\(recording): \(error); left out"
        }
    }

    /// Reads the rest and closes the media file: Janus has closed the recording.
    func finish() throws {
        guard !isDone else { return }
        try read()
        guard let conversion else {
            leftOut = leftOut ?? "\(recording): never got media (\(tail.header == nil ? "no header" : "no packet")); left out"
            return
        }
        let cutShort = tail.cutShortBytes > 0 ? "the last \(tail.cutShortBytes) bytes are a record cut short" : nil
        converted = try conversion.finish(stoppedEarly: tail.damaged ?? cutShort)
    }
}
