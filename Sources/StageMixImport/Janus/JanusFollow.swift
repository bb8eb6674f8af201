public import Foundation
import StageMixCapture
import StageMixJSON
import StageMixStorage

/// `stagemix import janus DIR --events FILE --out CAPTURE --follow`: a VideoRoom room imported while
/// Janus records it, as a capture in progress (the contract's "A capture in progress") that
/// `compose --follow` composes as it grows. Each `.mjr` (and `.mjr.tmp`) is read as Janus appends to
/// it and converted as it comes into a media file written live (Matroska and WebM without cues,
/// MPEG-TS), flushed; the events log is read as the receiver appends to it; and about once a second
/// `session.json` is replaced (written beside it, synced, renamed) by the room as known so far, said
/// complete to where every track's file is whole and every event is known (``completeToMs``). When
/// the room ends (destroyed, or everyone who joined has left and their recordings are closed) the
/// last version is the whole import's document. Memory is bounded by the room's participants and
/// events, not its length: no file is held whole.
public final class JanusFollow {
    public let source: JanusImport
    public let folder: URL
    /// How long Janus may add nothing (no recording, no event) before the follow gives up.
    public let timeoutSeconds: Double
    /// How far behind the newest packet, and the newest event, the capture is said complete: Janus
    /// stamps packets on arrival but their media times on the sender's clock, and posts events in
    /// batches, a little out of order.
    static let marginUs: Int64 = 300_000
    /// A recording that has had no packet for this long while others have is taken as paused (a
    /// camera stopped, a network hole) and no longer holds the capture back.
    static let quietUs: Int64 = 2_000_000
    /// How long a recording whose publish has ended must not grow before it is taken as closed.
    static let settleSeconds = 1.0

    /// The follow stopped because Janus added nothing for `seconds`; the capture stays as last written.
    public struct Stalled: Error, CustomStringConvertible {
        public var seconds: Double
        public var completeToMs: Int
        public var description: String {
            "Janus added nothing (no recording grew, no event) for \(Int(seconds)) s; the capture stays in progress, complete to \(completeToMs) ms"
        }
    }

    public struct Summary: Sendable {
        public var versions = 0
        public var recordings = 0
        public var tracks = 0
        public var endMs = 0
        /// The room ended and the last version is the whole document; false when stopped first.
        public var ended = false
        public var warnings: [String] = []
    }

    let events: JanusEventTail
    var recordings: [String: JanusFollowedRecording] = [:]
    private var room: String?
    var zeroUs: Int64?
    var manifest = JanusFollowedManifest()
    var summary = Summary()

    public init(_ source: JanusImport, into folder: URL, timeoutSeconds: Double = 120) {
        self.source = source
        self.folder = folder
        self.timeoutSeconds = timeoutSeconds
        events = JanusEventTail(source.events)
    }

    /// Follows the room to its end (or until `shouldStop` says so: the capture then stays in progress).
    /// `progress` hears each version's `completeToMs`. Throws ``Stalled`` when Janus stops writing.
    public func run(shouldStop: () -> Bool = { false }, progress: (Int) -> Void = { _ in }) throws -> Summary {
        let media = folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let watch = FolderWatch([source.directory, source.events.deletingLastPathComponent()], growth: true)
        var lastGrowth = Date()
        var lastVersion = Date.distantPast
        while !shouldStop() {
            let started = Date()
            if try look(media: media) { lastGrowth = started }
            if let room {
                let history = JanusRoomHistory(room: room, log: events.log)
                if hasEnded(history) {
                    try finishRoom(history)
                    progress(summary.endMs)
                    return summary
                }
                if started.timeIntervalSince(lastVersion) >= 1 {
                    lastVersion = started
                    if try writeVersion(history) { progress(manifest.completeToMs) }
                }
            }
            if Date().timeIntervalSince(lastGrowth) >= timeoutSeconds {
                throw Stalled(seconds: timeoutSeconds, completeToMs: manifest.completeToMs)
            }
            // Woken by Janus writing, but a look at most five times a second and at least once.
            watch.wait(timeout: 1)
            let spent = Date().timeIntervalSince(started)
            if spent < 0.2 { Thread.sleep(forTimeInterval: 0.2 - spent) }
        }
        return summary
    }

    /// Reads what was added to the events and the recordings; true when anything was.
    private func look(media: URL) throws -> Bool {
        let now = Date()
        try events.read()
        var grew = events.grew
        for (key, url) in try recordingFiles() where recordings[key] == nil {
            if let name = JanusRecordingName((key as NSString).lastPathComponent), let room, name.room != room { continue }
            do {
                recordings[key] = try JanusFollowedRecording(url, recording: key, mediaFolder: media)
            } catch {
                if let full = NoSpaceLeft(error) { throw full }
                summary.warnings.append("\(key): \(error); left out")
            }
            grew = true
        }
        for recording in recordings.values {
            try recording.read()
            grew = grew || recording.lastGrowth >= now
        }
        if room == nil { room = try chooseRoom() }
        return grew
    }

    /// Every `.mjr` and `.mjr.tmp` under the folder, by name without `.tmp`.
    private func recordingFiles() throws -> [(String, URL)] {
        guard let walker = FileManager.default.enumerator(at: source.directory, includingPropertiesForKeys: [.isRegularFileKey]) else {
            throw ImportError(problems: [JSONProblem(file: source.directory.path, path: "", expected: "a folder of Janus recordings", found: "no such folder")])
        }
        var files: [(String, URL)] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            let relative = source.relative(url)
            if relative.hasSuffix(".mjr") { files.append((relative, url)) }
            if relative.hasSuffix(".mjr.tmp") { files.append((String(relative.dropLast(".tmp".count)), url)) }
        }
        return files.sorted { $0.0 < $1.0 }
    }

    /// The room, once the recordings' names or the events name one.
    private func chooseRoom() throws -> String? {
        let files = recordings.keys.sorted().map { source.directory.appendingPathComponent($0) }
        let log = events.log
        guard source.room != nil || files.contains(where: { JanusRecordingName($0.lastPathComponent) != nil }) || !JanusRoomHistory.rooms(in: log).isEmpty else {
            return nil
        }
        return try source.chooseRoom(files: files, log: log)
    }

    /// The room has ended: destroyed, or everyone who joined has left (or stopped publishing, for a
    /// publisher the log never saw join) and every recording is closed.
    private func hasEnded(_ history: JanusRoomHistory) -> Bool {
        guard history.firstEventUs != nil else { return false }
        let everyoneLeft = !history.publishers.isEmpty && history.publishers.values.allSatisfy { $0.leftUs != nil && !$0.isPublishing }
        guard history.destroyedUs != nil || everyoneLeft else { return false }
        return recordings.values.allSatisfy { $0.isDone || Date().timeIntervalSince($0.lastGrowth) >= Self.settleSeconds }
    }

    /// Whose a recording is, as the whole import decides it.
    func publisher(of recording: JanusFollowedRecording, in history: JanusRoomHistory) -> String? {
        recording.name?.publisherId ?? recording.createdUs.flatMap { JanusImport.owner(of: $0, in: history) }
    }
}
