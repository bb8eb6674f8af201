public import Foundation
import StageMixCapture
import StageMixJSON

/// `stagemix import daily DIR`: a Daily raw-tracks recording as its bucket holds it (a WebM per
/// track, ``DailyFileName``), with any of Daily's JSON the user saved beside it (``DailyDocuments``):
/// the `recording.ready-to-download` webhook and the recording's event JSON. Every participant is
/// shown by Daily's `displayName`, on stage while publishing; each file is a track placed by its own
/// timestamps, which count from the recording's start; pauses (Daily's events, and a camera's or
/// microphone's gaps) are mutes. See docs/import.md, "Daily raw-tracks".
public struct DailyImport: PlatformImporter {
    public static let platform = "daily"
    /// The recording to import (its start in the names, or its `recording_id`), when the folder holds several.
    public var recording: String?

    /// How far a file's own clock may be from its name's start and still place it (the two differ by
    /// some 200 ms in Daily's recordings); further, the timestamps were rewritten and the name places it.
    static let fileClockToleranceMs: Int64 = 2_000

    public init(recording: String? = nil) { self.recording = recording }

    public func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture {
        let documents = DailyDocuments(folder.documents)
        if !documents.problems.isEmpty { throw ImportError(problems: documents.problems) }
        let start = try recordingStart(folder, documents)
        var session = PlatformSession()
        session.note(instant: start)
        let recordings = documents.recordings.filter { recording in
            recording.tracks.contains { Self.fileName(of: $0.s3Key)?.name.recordingStartMs == start }
                || (recording.tracks.isEmpty && recording.startMs.map { abs($0 - start) < 1_000 } == true)
        }
        // An event file is one recording's: the one its uris name (a file naming none is taken as this one's).
        var groupStarts: [String: Set<Int64>] = [:]
        for event in documents.events {
            groupStarts[event.group, default: []].formUnion(event.uri.flatMap(Self.fileName(of:)).map { [$0.name.recordingStartMs] } ?? [])
        }
        let eventTracks = DailyEventTrack.tracks(from: documents.events).filter { groupStarts[$0.group].map { $0.isEmpty || $0.contains(start) } ?? true }
        var files = gather(folder, start: start, recordings: recordings, eventTracks: eventTracks, warnings: &session.warnings)
        for i in files.indices { files[i].measure(warnings: &session.warnings) }
        for recording in recordings { describe(recording, start: start, into: &session) }
        let endMs = recordings.compactMap { $0.durationMs }.max().map { start + $0 }

        var shown: [String: String] = [:]
        for track in eventTracks { if let id = track.participant, let name = track.displayName { shown[id] = name } }
        for file in files {
            guard let source = file.name.source else {
                session.warnings.append("\(file.reference): a custom track (\(file.name.type)), which StageMix does not compose; left out")
                continue
            }
            let participant = file.name.participant
            if shown[participant] == nil {
                session.warnings.append("participant \(participant): no displayName in Daily's event JSON (none saved beside the files?); shown by their session id")
                shown[participant] = participant
            }
            session.participant(participant, name: shown[participant]!)
            let linked = eventTracks.filter { track in track.uri.flatMap(Self.fileName(of:))?.fileName == file.fileName }
            var placed = place(file, start: start, linked: linked.first, endMs: endMs, alignment: &session.alignment, warnings: &session.warnings)
            placed.source = source
            // Pauses from events: the file's own, or else those of a track of the same participant and source whose file is not named.
            let unlinked = eventTracks.filter { track in
                track.uri == nil && track.participant == participant && track.source == source
                    && (track.addedMs ?? .min) <= placed.toMs && (track.removedMs ?? .max) >= placed.fromMs
            }
            let pauses = (linked + (linked.isEmpty ? unlinked : [])).flatMap(\.pauses)
            placed.mutes = Self.merged(placed.mutes + pauses, within: placed.fromMs...placed.toMs)
            session.add(placed)
        }
        if session.tracks.isEmpty {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "Daily raw-tracks files of the recording started at \(start)",
                                                     found: "no track that could be placed (see the warnings: \(session.warnings.prefix(3).joined(separator: "; ")))")])
        }
        return session.capture(sessionId: recordings.compactMap(\.id).first ?? String(start), platform: Self.platform)
    }

    /// Every file of the recording: in the folder by its name, and named by the documents (found by
    /// trailing path, or lost). A file two folders hold is taken once.
    private func gather(_ folder: PlatformFolder, start: Int64, recordings: [DailyDocuments.Recording], eventTracks: [DailyEventTrack],
                        warnings: inout [String]) -> [DailyTrackFile] {
        var files: [DailyTrackFile] = []
        for path in folder.files.paths {
            let name = (path as NSString).lastPathComponent
            guard let parsed = DailyFileName(name), parsed.recordingStartMs == start else { continue }
            if let other = files.first(where: { $0.fileName == name }) {
                warnings.append("\(path): the same file as \(other.reference); \(other.reference) is used")
                continue
            }
            files.append(DailyTrackFile(name: parsed, fileName: name, reference: path, url: folder.directory.appendingPathComponent(path)))
        }
        func listed(_ reference: String, size: Int64?, by document: String) {
            guard let found = Self.fileName(of: reference), found.name.recordingStartMs == start else { return }
            let name = found.fileName
            if let i = files.firstIndex(where: { $0.fileName == name }) {
                if let size, files[i].listedSize == nil { files[i].listedSize = (bytes: size, document: document) }
                files[i].listedBy = files[i].listedBy ?? document
                return
            }
            let match = folder.files.match(reference)
            if let warning = match.warning { warnings.append(warning) }
            files.append(DailyTrackFile(name: found.name, fileName: name, reference: reference, url: match.url,
                                        listedSize: size.map { (bytes: $0, document: document) }, listedBy: document))
        }
        for recording in recordings { for track in recording.tracks { listed(track.s3Key, size: track.size, by: track.document) } }
        for track in eventTracks { if let uri = track.uri { listed(uri, size: nil, by: track.document) } }
        return files.sorted { ($0.name.participant, $0.name.trackStartMs, $0.name.type) < ($1.name.participant, $1.name.trackStartMs, $1.name.type) }
    }

    /// A file placed on the wall clock: by its own timestamps (the recording's start plus its first
    /// timestamp), unless they are further than ``fileClockToleranceMs`` from its name's start; a lost
    /// file where its event or name says it started, to its removal or the recording's end.
    private func place(_ file: DailyTrackFile, start: Int64, linked event: DailyEventTrack?, endMs: Int64?,
                       alignment: inout [String], warnings: inout [String]) -> PlacedTrack {
        let nameStart = file.name.trackStartMs
        var track = PlacedTrack(id: "\(file.name.participant)-\(file.name.type)", participantId: file.name.participant, source: .camera,
                                file: "media/" + file.fileName, media: .lost, mediaStartMs: nameStart, fromMs: nameStart, toMs: nameStart)
        guard file.lost == nil, let header = file.header, let endMs = header.endMs, let url = file.url else {
            track.mediaStartMs = event?.mediaStartMs ?? nameStart
            track.fromMs = track.mediaStartMs
            track.toMs = max(track.fromMs, event?.removedMs ?? endMs ?? track.fromMs)
            warnings.append("\(file.reference): \(file.lost ?? "cannot be read"); \(file.name.participant)'s \(file.name.type) from \(PlatformClock.rfc3339(track.fromMs)) is reported as lost media")
            return track
        }
        let fileStart = start + Int64(header.firstMs)
        var line = "\(file.fileName): first sample \(fileStart - start) ms into the recording by its timestamps, \(nameStart - start) ms by its name"
        if let eventStart = event?.mediaStartMs { line += ", \(eventStart - start) ms by mediaStartTime (\(event!.document))" }
        if abs(fileStart - nameStart) <= Self.fileClockToleranceMs {
            track.mediaStartMs = fileStart
            alignment.append(line + "; its timestamps place it")
        } else {
            track.mediaStartMs = nameStart
            alignment.append(line + "; its name places it")
            warnings.append("\(file.reference): its timestamps start \(fileStart - nameStart) ms from its name's start, so they do not count from the recording's start "
                            + "(rewritten by another tool?); placed by its name")
        }
        track.media = .linked(url)
        track.fromMs = track.mediaStartMs
        track.toMs = track.mediaStartMs + Int64(endMs - header.firstMs)
        track.width = header.width
        track.height = header.height
        track.mutes = header.gaps.map { track.mediaStartMs + Int64($0.lowerBound - header.firstMs)...track.mediaStartMs + Int64($0.upperBound - header.firstMs) }
        return track
    }

    /// What the webhook or recording object says, for `import.json`.
    private func describe(_ recording: DailyDocuments.Recording, start: Int64, into session: inout PlatformSession) {
        if let type = recording.type, type != "raw-tracks" {
            session.warnings.append("\(recording.document): a \(type) recording, not raw-tracks; only its tracks are read")
        }
        var line = "\(recording.document): recording \(recording.id ?? "(no id)")" + (recording.roomName.map { " of room \($0)" } ?? "")
        if let startMs = recording.startMs { line += ", start_ts \(PlatformClock.rfc3339(startMs)) (\(startMs - start) ms from the names' recording start, which is the session's zero)" }
        if let duration = recording.durationMs { line += ", duration \(duration / 1000) s" }
        session.alignment.append(line)
    }

    /// Intervals merged where they touch or overlap, cut to `bounds`; empty ones dropped.
    static func merged(_ intervals: [ClosedRange<Int64>], within bounds: ClosedRange<Int64>) -> [ClosedRange<Int64>] {
        var out: [ClosedRange<Int64>] = []
        for interval in intervals.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            let lower = max(interval.lowerBound, bounds.lowerBound), upper = min(interval.upperBound, bounds.upperBound)
            guard lower < upper else { continue }
            if let last = out.last, lower <= last.upperBound {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, upper)
            } else {
                out.append(lower...upper)
            }
        }
        return out
    }

    /// The file a key, path or URI names, with and without its `.webm` (an event's `uri` has none).
    static func fileName(of reference: String) -> (fileName: String, name: DailyFileName)? {
        guard let last = FileIndex.components(of: reference).last else { return nil }
        if let name = DailyFileName(last) { return (last, name) }
        return DailyFileName(last + ".webm").map { (last + ".webm", $0) }
    }

    /// The recording the folder holds: the one `recording` names (its start or its id), or the only one.
    private func recordingStart(_ folder: PlatformFolder, _ documents: DailyDocuments) throws -> Int64 {
        var starts = Set(folder.files.paths.compactMap { DailyFileName(($0 as NSString).lastPathComponent)?.recordingStartMs })
        for recording in documents.recordings { for track in recording.tracks { if let name = Self.fileName(of: track.s3Key) { starts.insert(name.name.recordingStartMs) } } }
        for event in documents.events { if let name = event.uri.flatMap(Self.fileName(of:)) { starts.insert(name.name.recordingStartMs) } }
        let found = starts.isEmpty ? "no such file" : "recordings started at \(starts.sorted().map(String.init).joined(separator: ", "))"
        if let recording {
            if let ms = Int64(recording), starts.contains(ms) { return ms }
            let byId = documents.recordings.filter { $0.id == recording }.flatMap(\.tracks).compactMap { Self.fileName(of: $0.s3Key)?.name.recordingStartMs }
            if let ms = byId.first { return ms }
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "files of recording \(recording)", found: found)])
        }
        guard starts.count == 1, let only = starts.first else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "",
                                                     expected: "the files of one Daily raw-tracks recording (<recordingStartMs>-<sessionId>-<type>-<trackStartMs>.webm; choose one with --recording)",
                                                     found: found)])
        }
        return only
    }
}
