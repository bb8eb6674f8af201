public import Foundation
import StageMixCapture
import StageMixJSON

/// `stagemix import 100ms DIR`: a 100ms session's track recordings (one WebM per track) as the bucket
/// holds them, with 100ms's JSON the user saved beside them (``HundredMsDocuments``). Every peer with
/// a recorded track is a participant shown by its `user_name`, on stage from its join to its leave;
/// each track's file is placed as well as the data allows (``HundredMsPlacement``), and
/// `import.json`'s `alignment` says how well, per track. See docs/import.md, "100ms".
public struct HundredMsImport: PlatformImporter {
    public static let platform = "100ms"
    /// The session (`session_id`) to import, when the folder holds several.
    public var session: String?

    public init(session: String? = nil) { self.session = session }

    public func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture {
        let documents = HundredMsDocuments(folder.documents)
        if !documents.problems.isEmpty { throw ImportError(problems: documents.problems) }
        let sessionId = try chosenSession(documents, in: folder)
        let recordings = Self.merged(documents.recordings.filter { $0.sessionId == nil || $0.sessionId == sessionId })
        guard !recordings.isEmpty else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "100ms track.recording.success webhooks or track assets naming the files",
                                                     found: "none in any .json or .jsonl file")])
        }
        var session = PlatformSession()
        session.alignment.append("100ms writes no start time into a track recording: each file is placed by the best the saved JSON gives, said per track below. "
                                 + "Tracks placed from their started_at are in sync to the millisecond; the others only as well as their sentence says.")
        var trackNames: [String: [String: String]] = [:]
        var used = Set<String>()
        let sources = Self.sources(recordings, documents)
        for recording in recordings {
            let events = documents.trackEvents.filter { $0.trackId == recording.trackId }
            let peer = documents.peers[recording.peerId]
            var media: PlacedTrack.Media = .lost, file = "media/" + (FileIndex.components(of: recording.path ?? recording.trackId).last ?? recording.trackId)
            var measured: MeasuredMedia?
            if let reference = recording.path {
                let match = folder.files.match(reference)
                if let warning = match.warning { session.warnings.append(warning) }
                if let relative = match.relative { used.insert(relative) }
                let kind: TrackKind = recording.isVideo ? .video : .audio
                let found = MeasuredMedia(reference: match.relative ?? reference, url: match.url, kind: kind)
                if let failure = recording.failure {
                    session.warnings.append("\(recording.document): track \(recording.trackId) failed to record (\(failure)); reported as lost media")
                } else if let lost = found.lost {
                    session.warnings.append("\(found.reference): \(lost); track \(recording.trackId) of \(recording.peerId) is reported as lost media")
                } else if let url = found.url, let relative = match.relative {
                    media = .linked(url)
                    file = "media/" + relative
                    measured = found
                }
            } else {
                session.warnings.append("\(recording.document): track \(recording.trackId) names no file; reported as lost media")
            }
            let clues = HundredMsPlacement.Clues(
                durationMs: measured?.durationMs ?? recording.durationMs, trackStartedMs: events.compactMap(\.startedMs).min(),
                recordingStartedMs: documents.recordingStarts[recording.trackId], successSentMs: recording.failure == nil ? recording.sentMs : nil,
                joinedMs: peer?.joinedMs, leftMs: peer?.leftMs, sessionEndMs: documents.sessionEnds[sessionId])
            guard let placement = HundredMsPlacement.estimate(clues) else {
                session.warnings.append("\(recording.document): nothing places track \(recording.trackId) of \(recording.peerId) in time "
                                        + "(no track event, webhook time or join); left out")
                continue
            }
            let (source, inferred) = sources[recording.trackId] ?? (source: recording.isVideo ? TrackSource.camera : .microphone, inferred: false)
            let length = clues.durationMs ?? 0
            let name = peer?.userName ?? events.compactMap(\.userName).first ?? recording.peerId
            session.participant(recording.peerId, name: name)
            if let joined = peer?.joinedMs { session.present(recording.peerId, from: joined, to: peer?.leftMs ?? joined) }
            let id = session.add(PlacedTrack(id: "\(recording.peerId)-\(source.rawValue)", participantId: recording.peerId, source: source, file: file, media: media,
                                             mediaStartMs: placement.startMs, fromMs: placement.startMs, toMs: placement.startMs + length,
                                             width: measured?.header?.width, height: measured?.header?.height,
                                             mutes: VideoGaps.union(Self.mutes(events, from: placement.startMs, to: placement.startMs + length)
                                                                    + (measured?.videoGaps(placedAt: placement.startMs) ?? []))))
            session.alignment.append("\(file) (\(name)'s \(source.rawValue), track \(recording.trackId)): starts at \(PlatformClock.rfc3339(placement.startMs)), from \(placement.basis)"
                                     + (inferred ? "; a screen share by its stream (another than the peer's first), no track event saying so" : ""))
            trackNames[id] = ["track_id": recording.trackId, "peer_id": recording.peerId]
            if let stream = recording.streamId { trackNames[id]?["stream_id"] = stream }
        }
        for path in folder.files.paths where path.lowercased().hasSuffix(".webm") && !used.contains(path) {
            session.warnings.append("\(path): no track.recording.success or track asset names it; left out")
        }
        if session.tracks.isEmpty {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "track recordings of session \(sessionId) that can be placed in time",
                                                     found: "none (\(session.warnings.prefix(3).joined(separator: "; ")))")])
        }
        var imported = session.capture(sessionId: sessionId, platform: Self.platform)
        imported.trackNames = trackNames
        return imported
    }

    /// One recording per track: a webhook and an asset for the same track fill in each other's gaps.
    static func merged(_ recordings: [HundredMsDocuments.Recording]) -> [HundredMsDocuments.Recording] {
        var byTrack: [String: HundredMsDocuments.Recording] = [:], order: [String] = []
        for recording in recordings {
            guard var known = byTrack[recording.trackId] else {
                byTrack[recording.trackId] = recording
                order.append(recording.trackId)
                continue
            }
            if known.failure != nil, recording.failure == nil { known.failure = nil }
            known.path = known.path ?? recording.path
            known.durationMs = known.durationMs ?? recording.durationMs
            known.streamId = known.streamId ?? recording.streamId
            known.sessionId = known.sessionId ?? recording.sessionId
            if let sent = recording.sentMs { known.sentMs = min(known.sentMs ?? sent, sent) }
            byTrack[recording.trackId] = known
        }
        return order.compactMap { byTrack[$0] }
    }

    /// Each track's source: a screen share when 100ms's track events say `source: screen`; without
    /// them, a track in a stream holding video other than the peer's first (100ms publishes a screen
    /// share as a stream of its own beside the camera's and microphone's). The second is an inference.
    static func sources(_ recordings: [HundredMsDocuments.Recording], _ documents: HundredMsDocuments) -> [String: (source: TrackSource, inferred: Bool)] {
        var out: [String: (source: TrackSource, inferred: Bool)] = [:]
        var firstStream: [String: String] = [:]
        for recording in recordings {
            if let stream = recording.streamId, firstStream[recording.peerId] == nil { firstStream[recording.peerId] = stream }
        }
        let withVideo = Set(recordings.filter(\.isVideo).compactMap(\.streamId))
        for recording in recordings {
            let said = documents.trackEvents.first { $0.trackId == recording.trackId && $0.isScreen != nil }?.isScreen
            let screen = said ?? recording.streamId.map { $0 != firstStream[recording.peerId] && withVideo.contains($0) } ?? false
            let source: TrackSource
            switch (screen, recording.isVideo) {
            case (true, true): source = .screenShare
            case (true, false): source = .screenShareAudio
            case (false, true): source = .camera
            case (false, false): source = .microphone
            }
            out[recording.trackId] = (source, said == nil && screen)
        }
        return out
    }

    /// Muted stretches inside `from...to` from `track.add|update.success` events' `mute`.
    static func mutes(_ events: [HundredMsDocuments.TrackEvent], from: Int64, to: Int64) -> [ClosedRange<Int64>] {
        var ranges: [ClosedRange<Int64>] = []
        var mutedSince: Int64?
        for event in events.sorted(by: { ($0.atMs ?? 0) < ($1.atMs ?? 0) }) {
            guard let mute = event.mute, let at = event.atMs else { continue }
            let clamped = min(max(at, from), to)
            if mute, mutedSince == nil { mutedSince = clamped }
            if !mute, let since = mutedSince {
                if clamped > since { ranges.append(since...clamped) }
                mutedSince = nil
            }
        }
        if let since = mutedSince, to > since { ranges.append(since...to) }
        return ranges
    }

    /// The session the folder holds: the one `session` names, or the only one.
    private func chosenSession(_ documents: HundredMsDocuments, in folder: PlatformFolder) throws -> String {
        let sessions = Set(documents.recordings.compactMap(\.sessionId))
        if let session {
            guard sessions.contains(session) else {
                throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "track recordings of session \(session)",
                                                         found: sessions.isEmpty ? "none naming a session" : "sessions \(sessions.sorted().joined(separator: ", "))")])
            }
            return session
        }
        guard sessions.count <= 1 else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "the track recordings of one 100ms session (choose one with --session)",
                                                     found: "sessions \(sessions.sorted().joined(separator: ", "))")])
        }
        return sessions.first ?? "100ms"
    }
}
