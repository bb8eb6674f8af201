public import Foundation
import StageMixCapture
import StageMixJSON

/// `stagemix import videosdk DIR`: a VideoSDK session's participant track recordings (WebM per
/// participant and kind under `${sessionId}/${participantId}/${kind}/`, a new file on each unmute or
/// camera restart) as the bucket holds them, with VideoSDK's JSON the user saved beside them
/// (``VideoSDKDocuments``). Every participant with a recorded file is shown by its
/// `participantName`; each kind's files are placed by their recording's `start` and `end`
/// (``VideoSDKPlacement``), a pause between two files being a mute. See docs/import.md, "VideoSDK".
public struct VideoSDKImport: PlatformImporter {
    public static let platform = "videosdk"
    /// The session (`sessionId`) to import, when the folder holds several.
    public var session: String?

    public init(session: String? = nil) { self.session = session }

    /// One participant's kind.
    struct StreamKey: Hashable, Comparable {
        var participantId: String
        var kind: VideoSDKKind
        static func < (a: Self, b: Self) -> Bool { (a.participantId, a.kind.rawValue) < (b.participantId, b.kind.rawValue) }
    }

    /// A file of a stream: where a document or the folder names it, and the file found.
    struct Entry {
        var reference: String
        var relative: String?
        var recording: Int?
    }

    public func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture {
        let documents = VideoSDKDocuments(folder.documents)
        if !documents.problems.isEmpty { throw ImportError(problems: documents.problems) }
        var session = PlatformSession()
        var streams: [StreamKey: [Entry]] = [:]
        var sessions: [String: Int] = [:]
        func add(_ reference: String, relative: String?, key: StreamKey?, sessionId: String?, recording: Int?) {
            guard let key else {
                session.warnings.append("\(reference): neither its path (<sessionId>/<participantId>/<kind>/<file>) nor its document says whose it is; left out")
                return
            }
            if let sessionId { sessions[sessionId, default: 0] += 1 }
            var entries = streams[key, default: []]
            let same = relative ?? FileIndex.components(of: reference).joined(separator: "/")
            if let i = entries.firstIndex(where: { ($0.relative ?? FileIndex.components(of: $0.reference).joined(separator: "/")) == same }) {
                if entries[i].recording == nil { entries[i].recording = recording }
            } else {
                entries.append(Entry(reference: reference, relative: relative, recording: recording))
            }
            streams[key] = entries
        }
        for (index, listing) in documents.listings.enumerated() {
            if listing.failed, let participant = listing.participantId, let kind = listing.kind {
                session.warnings.append("\(listing.document): the \(kind.rawValue) recording of \(participant) failed; what it names is lost media")
            }
            for reference in listing.files {
                var match = folder.files.match(reference)
                if let warning = match.warning { session.warnings.append(warning) }
                let path = VideoSDKFilePath(reference) ?? match.relative.flatMap(VideoSDKFilePath.init)
                // A file found by its name alone is another kind's or participant's (names repeat across kinds).
                if let path, let found = match.relative.flatMap(VideoSDKFilePath.init), found.participantId != path.participantId || found.kind != path.kind {
                    match = FileIndex.Match()
                }
                let key = (path.map { StreamKey(participantId: $0.participantId, kind: $0.kind) })
                    ?? listing.participantId.flatMap { id in listing.kind.map { StreamKey(participantId: id, kind: $0) } }
                add(reference, relative: listing.failed ? nil : match.relative, key: key, sessionId: path?.sessionId ?? listing.sessionId,
                    recording: listing.startMs == nil ? nil : index)
            }
        }
        let listed = Set(streams.values.flatMap { $0.compactMap(\.relative) })
        for relative in folder.files.paths.sorted(by: { $0.localizedStandardCompare($1) == .orderedAscending }) where !listed.contains(relative) {
            guard let path = VideoSDKFilePath(relative) else { continue }
            add(relative, relative: relative, key: StreamKey(participantId: path.participantId, kind: path.kind), sessionId: path.sessionId, recording: nil)
        }
        let sessionId = try chosenSession(sessions, in: folder)
        if sessions.count > 1 {
            streams = streams.mapValues { $0.filter { VideoSDKFilePath($0.relative ?? $0.reference)?.sessionId ?? sessionId == sessionId } }
        }
        guard streams.values.contains(where: { !$0.isEmpty }) else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "VideoSDK track recordings (<sessionId>/<participantId>/<kind>/<file>.webm)",
                                                     found: "no such file, and no participant-track-recording-stopped or recording object naming one")])
        }
        session.alignment.append("VideoSDK gives no time per file, only each recording's start and end: the files of a participant's kind are placed by them, "
                                 + "said per recording below; a pause between two files is a mute.")
        for (participant, spans) in documents.presence {
            for span in spans { session.present(participant, from: span.start, to: span.end ?? span.start) }
        }
        let fallback = documents.presence.values.flatMap { $0.map(\.start) }.min()
        for key in streams.keys.sorted() {
            guard let entries = streams[key], !entries.isEmpty else { continue }
            let name = documents.names[key.participantId] ?? key.participantId
            session.participant(key.participantId, name: name)
            // The files of each recording object, in its order; files no recording object times go together.
            var groups: [Int?: [Entry]] = [:]
            for entry in entries { groups[entry.recording, default: []].append(entry) }
            for (recording, group) in groups.sorted(by: { ($0.key ?? .max) < ($1.key ?? .max) }) {
                let listing = recording.map { documents.listings[$0] }
                let joined = documents.presence[key.participantId]?.map(\.start).min() ?? fallback
                guard let start = listing?.startMs ?? joined else {
                    session.warnings.append("\(group[0].reference): no recording start or join time places \(name)'s \(key.kind.rawValue); placed at the session's start")
                    place(group, key: key, name: name, start: session.tracks.map(\.fromMs).min() ?? 0, end: nil, why: "nothing (placed at the session's start)",
                          in: &session, folder: folder)
                    continue
                }
                let why = listing.map { "\($0.document)'s start \(PlatformClock.rfc3339(start))" + ($0.endMs.map { " and end \(PlatformClock.rfc3339($0))" } ?? "") }
                    ?? "\(name)'s join at \(PlatformClock.rfc3339(start)), no recording start being saved: the files began then or after"
                place(group, key: key, name: name, start: start, end: listing?.endMs, why: why, in: &session, folder: folder)
            }
        }
        if session.tracks.isEmpty {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "track recordings of session \(sessionId) that can be placed",
                                                     found: "none (\(session.warnings.prefix(3).joined(separator: "; ")))")])
        }
        return session.capture(sessionId: sessionId, platform: Self.platform)
    }

    /// The tracks of one recording's files: each file a track, published until the next file starts
    /// and muted in between.
    private func place(_ entries: [Entry], key: StreamKey, name: String, start: Int64, end: Int64?, why: String,
                       in session: inout PlatformSession, folder: PlatformFolder) {
        let kind = key.kind.source.kind
        let measured = entries.map { entry in
            MeasuredMedia(reference: entry.relative ?? entry.reference, url: entry.relative.map { folder.files.directory.appendingPathComponent($0) }, kind: kind)
        }
        let placement = VideoSDKPlacement(measured.map { VideoSDKPlacement.File(firstMs: $0.header?.firstMs, durationMs: $0.durationMs) }, start: start, end: end)
        session.alignment.append("\(name)'s \(key.kind.rawValue) (\(entries.count) file\(entries.count == 1 ? "" : "s")): placed by \(why), from \(placement.basis)")
        for (i, (file, spot)) in zip(measured, placement.placed).enumerated() {
            let next = i + 1 < placement.placed.count ? placement.placed[i + 1].startMs : nil
            let ends = spot.startMs + spot.durationMs
            let capturePath = "media/" + (entries[i].relative ?? "\(key.participantId)/\(key.kind.rawValue)/" + (FileIndex.components(of: file.reference).last ?? "file"))
            if let lost = file.lost {
                session.warnings.append("\(file.reference): \(lost); \(name)'s \(key.kind.rawValue) from \(PlatformClock.rfc3339(spot.startMs)) is reported as lost media")
                if spot.durationMs <= 0 { continue }
            }
            session.add(PlacedTrack(id: "\(key.participantId)-\(key.kind.source.rawValue)", participantId: key.participantId, source: key.kind.source,
                                    file: capturePath, media: file.lost == nil ? .linked(file.url!) : .lost,
                                    mediaStartMs: spot.startMs, fromMs: spot.startMs, toMs: max(next ?? ends, ends),
                                    width: file.header?.width, height: file.header?.height,
                                    mutes: VideoGaps.union(file.videoGaps(placedAt: spot.startMs) + (next.map { $0 > ends ? [ends...$0] : [] } ?? []))))
        }
    }

    /// The session the folder holds: the one `session` names, or the only one.
    private func chosenSession(_ sessions: [String: Int], in folder: PlatformFolder) throws -> String {
        if let session {
            guard sessions[session] != nil else {
                throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "track recordings of session \(session)",
                                                         found: sessions.isEmpty ? "none naming a session" : "sessions \(sessions.keys.sorted().joined(separator: ", "))")])
            }
            return session
        }
        guard sessions.count <= 1 else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "the track recordings of one VideoSDK session (choose one with --session)",
                                                     found: "sessions \(sessions.keys.sorted().joined(separator: ", "))")])
        }
        return sessions.keys.first ?? "videosdk"
    }
}
