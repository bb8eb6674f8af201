public import Foundation
import StageMixCapture
import StageMixJSON
import StageMixStorage

/// `stagemix import janus DIR --events FILE`: a Janus VideoRoom room as a capture. Each `.mjr`
/// recording under DIR is read natively (``JanusRecordingConverter``: no `janus-pp-rec`) into a media
/// file of the capture, and the sample event handler's log says who published when
/// (``JanusRoomHistory``, ``JanusRoomCapture``). A recording Janus is still writing (`.mjr.tmp`), one
/// that never got media, or one of a codec StageMix cannot read is reported and left out.
public struct JanusImport: Sendable {
    public var directory: URL
    public var events: URL
    /// The VideoRoom room; nil: the one room the recordings (or the events) are of.
    public var room: String?
    /// Display names or ids of who is on stage; nil: every publisher.
    public var stage: [String]?

    public init(directory: URL, events: URL, room: String? = nil, stage: [String]? = nil) {
        self.directory = directory
        self.events = events
        self.room = room
        self.stage = stage
    }

    /// Converts the recordings into `staging/media` and returns the capture they make (its media
    /// already in place: ``ImportedCapture/write(into:copyMedia:)`` links nothing).
    public func write(into staging: URL) throws -> ImportedCapture {
        let log = try JanusEventLog.read(events)
        var warnings: [String] = log.unreadableLines.isEmpty ? [] : ["\(events.lastPathComponent): lines \(Self.list(log.unreadableLines)) are not JSON; skipped"]
        let (files, skipped) = try recordings()
        warnings += skipped
        let room = try chooseRoom(files: files, log: log)
        let history = JanusRoomHistory(room: room, log: log)
        let mediaFolder = staging.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: mediaFolder, withIntermediateDirectories: true)
        var media: [JanusTrackMedia] = []
        for file in files {
            let name = JanusRecordingName(file.lastPathComponent)
            if let name, name.room != room { continue }
            let converted: JanusConvertedRecording
            do {
                converted = try JanusRecordingConverter.convert(file, into: mediaFolder, baseName: Self.baseName(file))
            } catch {
                // A full disk is the import's end, not one recording's.
                if let full = NoSpaceLeft(error) { throw full }
                warnings.append("\(relative(file)): \(error); left out")
                continue
            }
            warnings += converted.warnings
            warnings += JanusLoss.summary(converted.losses, of: relative(file))
            guard let written = converted.file, converted.header.kind != .data else {
                if converted.header.kind == .data { warnings.append("\(relative(file)): a data channel recording; left out") }
                continue
            }
            guard let publisher = name?.publisherId ?? Self.owner(of: converted.header.createdUs, in: history) else {
                warnings.append("\(relative(file)): its name does not say whose it is, and no publisher configured a publish just before it was made; left out")
                try? FileManager.default.removeItem(at: written)
                continue
            }
            media.append(JanusTrackMedia(recording: relative(file), publisherId: publisher, createdUs: converted.header.createdUs,
                                         kind: converted.header.kind == .audio ? .audio : .video, file: "media/" + written.lastPathComponent,
                                         firstSampleUs: converted.firstSampleUs, durationMs: converted.durationMs,
                                         width: converted.width, height: converted.height))
        }
        if media.isEmpty {
            throw ImportError(problems: [JSONProblem(file: directory.path, path: "", expected: "Janus recordings (.mjr) of room \(room) with media",
                                                     found: files.isEmpty ? "no .mjr file" : "none that could be read (see the warnings)")])
        }
        let (manifest, assembly) = JanusRoomCapture(sessionId: "janus-room-\(room)", history: history, media: media, stage: stage).manifest()
        return ImportedCapture(manifest: manifest, media: [:], warnings: warnings + assembly, platform: "janus")
    }

    /// The `.mjr` files under the folder, and what was skipped: files still being written, files
    /// that never got media (Janus writes the 8-byte `MJR00002` and nothing more).
    private func recordings() throws -> (files: [URL], skipped: [String]) {
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) else {
            throw ImportError(problems: [JSONProblem(file: directory.path, path: "", expected: "a folder of Janus recordings", found: "no such folder")])
        }
        var files: [URL] = []
        var skipped: [String] = []
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey])
            guard values?.isRegularFile == true else { continue }
            if url.lastPathComponent.hasSuffix(".mjr.tmp") {
                skipped.append("\(relative(url)): still being written by Janus (.mjr.tmp); left out")
            } else if url.pathExtension == "mjr" {
                if (values?.fileSize ?? 0) <= 8 {
                    skipped.append("\(relative(url)): a stream that never got media (\(values?.fileSize ?? 0) bytes); left out")
                } else {
                    files.append(url)
                }
            }
        }
        return (files.sorted { $0.path < $1.path }, skipped)
    }

    func chooseRoom(files: [URL], log: JanusEventLog) throws -> String {
        if let room { return room }
        var rooms: [String] = []
        for room in files.compactMap({ JanusRecordingName($0.lastPathComponent)?.room }) + JanusRoomHistory.rooms(in: log) where !rooms.contains(room) {
            rooms.append(room)
        }
        let recorded = Set(files.compactMap { JanusRecordingName($0.lastPathComponent)?.room })
        let candidates = recorded.isEmpty ? rooms : rooms.filter(recorded.contains)
        guard candidates.count == 1 else {
            throw ImportError(problems: [JSONProblem(file: directory.path, path: "", expected: "the recordings of one VideoRoom room (choose it with --room)",
                                                     found: candidates.isEmpty ? "no room in the events or the file names" : "rooms \(candidates.joined(separator: ", "))")])
        }
        return candidates[0]
    }

    /// A recording named by the publisher (`filename`): the publisher whose `configured` came last,
    /// at most a second, before Janus made its recorder.
    static func owner(of createdUs: Int64, in history: JanusRoomHistory) -> String? {
        history.order.compactMap { id -> (String, Int64)? in
            guard let configured = history.publishers[id]?.configuredUs.filter({ $0 <= createdUs && createdUs - $0 < 1_000_000 }).max() else { return nil }
            return (id, configured)
        }.max { $0.1 < $1.1 }?.0
    }

    func relative(_ url: URL) -> String {
        let base = directory.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : url.lastPathComponent
    }

    /// The media file's name: the recording's, less `.mjr` (the converter adds the container's extension).
    static func baseName(_ url: URL) -> String { url.deletingPathExtension().lastPathComponent }

    static func list(_ numbers: [Int]) -> String {
        numbers.prefix(5).map(String.init).joined(separator: ", ") + (numbers.count > 5 ? " and \(numbers.count - 5) more" : "")
    }
}
