public import Foundation
import StageMixCapture
import StageMixJSON

/// `stagemix import agora DIR`: an Agora Cloud Recording in individual mode, legacy
/// (`mode=individual`: a playlist per uid and kind, TS or WebM slices) or raw (`mode=raw`: one TS
/// playlist per uid with audio and video), as its bucket holds it, with any of Agora's JSON the user
/// saved beside it (``AgoraDocuments``). Every uid is a participant shown by its uid, on stage while
/// publishing; each stream's slices make tracks (``AgoraRun``) placed by the start in their names.
/// See docs/import.md, "Agora Cloud Recording".
public struct AgoraImport: PlatformImporter {
    public static let platform = "agora"
    /// The recording (`sid`) to import, when the folder holds several.
    public var sid: String?

    public init(sid: String? = nil) { self.sid = sid }

    public func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture {
        let documents = AgoraDocuments(folder.documents)
        if !documents.problems.isEmpty { throw ImportError(problems: documents.problems) }
        let named = folder.files.paths.compactMap { path in AgoraFileName((path as NSString).lastPathComponent).map { (path: path, name: $0) } }
        let sid = try recording(named, in: folder)
        let ours = named.filter { $0.name.sid == sid }
        var session = PlatformSession()
        // mode=raw with VP8/VP9 writes a DASH manifest beside WebM slices named as the legacy mode names
        // them (one kind each, with the UTC start): the slices are read by their names, like a slice no
        // playlist lists; the manifest adds nothing the names do not say.
        let dash = ours.filter { $0.name.role == .dash }
        for manifest in dash {
            session.alignment.append("\(manifest.path): a DASH manifest; its WebM slices are read by their names (…__uid_e_<audio|video>_<utc>.webm), the manifest is not needed")
        }
        var writer = AgoraRunWriter(staging: staging)
        session.alignment.append("Each slice is placed at the UTC start in its name (yyyyMMddHHmmssSSS, to the millisecond): Agora writes no EXT-X-PROGRAM-DATE-TIME. "
                                 + "Slices of a stream that continue one another (within 500 ms by their names and by their own timestamps) are one track, "
                                 + "its samples placed by their timestamps from the first slice's start; a longer gap ends the track until the next slice.")
        let listed = documents.files.filter { file in
            if file.mixedAllUser == true {
                session.warnings.append("\(file.document): \(file.fileName) mixes all users (a composite recording); left out")
                return false
            }
            return true
        }
        var keys = Set(ours.map(\.name.key))
        for file in listed { if let name = AgoraFileName((file.fileName as NSString).lastPathComponent), name.sid == sid { keys.insert(name.key) } }
        for key in keys.sorted() {
            let stream = AgoraStreamSlices(key: key, files: ours, listed: listed, folder: folder)
            session.warnings += stream.warnings
            session.alignment += stream.alignment
            try place(stream, in: &session, writer: &writer)
        }
        session.warnings += writer.warnings
        for start in documents.sliceStarts {
            session.alignment.append("\(start.document): recorder_slice_start\(start.uid.map { " of uid \($0)" } ?? "") at \(PlatformClock.rfc3339(start.startMs))"
                                     + (start.discontinueMs.map { ", after an interruption at \(PlatformClock.rfc3339($0))" } ?? "")
                                     + "; read to check, the slices' names place the media")
        }
        if session.tracks.isEmpty, let manifest = dash.first {
            throw ImportError(problems: [JSONProblem(file: manifest.path, path: "", expected: "WebM slices beside the DASH manifest, named as Agora names slices (…__uid_s_<uid>__uid_e_<audio|video>_<utc>.webm)",
                                                     found: "none: StageMix reads Agora's DASH recordings by their slices' names")])
        }
        if session.tracks.isEmpty {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "Agora individual recording files of recording \(sid)",
                                                     found: "no slice that could be placed (see the warnings: \(session.warnings.prefix(3).joined(separator: "; ")))")])
        }
        return session.capture(sessionId: sid, platform: Self.platform)
    }

    /// The tracks of one stream: a track per run, per kind it holds.
    private func place(_ stream: AgoraStreamSlices, in session: inout PlatformSession, writer: inout AgoraRunWriter) throws {
        let uid = stream.key.uid
        var previousEnd: [TrackKind: Int64] = [:]
        for run in AgoraRun.runs(of: stream.slices, reference: stream.referenceKind) {
            let kinds = run.isLost ? stream.kinds : stream.kinds.filter { run.first.streams[$0] != nil }
            let media = try writer.media(for: run, kinds: kinds)
            session.participant(uid, name: uid)
            for kind in kinds {
                guard let (file, placed) = media[kind] else { continue }
                let start = run.mediaStartMs(kind), end = run.endMs(kind)
                let from = max(start, previousEnd[kind] ?? start)
                if end <= from, !run.isLost {
                    session.warnings.append("\(run.first.reference): lies within an earlier slice of uid \(uid)'s \(kind.rawValue) (a failover's overlap); left out")
                    continue
                }
                let header = run.first.streams[kind]
                session.add(PlacedTrack(id: "\(uid)-\(kind == .audio ? "microphone" : "camera")", participantId: uid,
                                        source: kind == .audio ? .microphone : .camera, file: file, media: placed,
                                        mediaStartMs: start, fromMs: from, toMs: end, width: header?.width, height: header?.height))
                previousEnd[kind] = max(previousEnd[kind] ?? end, end)
            }
            if run.isLost {
                let reasons = run.slices.map { "\($0.reference): \($0.lost ?? "")" }
                session.warnings.append(reasons.prefix(3).joined(separator: "; ") + (reasons.count > 3 ? "; and \(reasons.count - 3) more" : "")
                                        + "; uid \(uid)'s \(stream.key.stream) from \(PlatformClock.rfc3339(run.first.startMs)) is reported as lost media")
            }
        }
    }

    /// The recording the folder holds: the one `sid` names, or the only one.
    private func recording(_ named: [(path: String, name: AgoraFileName)], in folder: PlatformFolder) throws -> String {
        let sids = Set(named.map(\.name.sid))
        if let sid {
            guard sids.contains(sid) else {
                throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "files of recording \(sid)",
                                                         found: sids.isEmpty ? "no Agora recording file" : "recordings \(sids.sorted().joined(separator: ", "))")])
            }
            return sid
        }
        guard sids.count == 1, let only = sids.first else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "",
                                                     expected: "the files of one Agora recording (<sid>_<cname>__uid_s_<uid>__uid_e_<type>...; choose one with --sid)",
                                                     found: sids.isEmpty ? "no such file" : "recordings \(sids.sorted().joined(separator: ", "))")])
        }
        return only
    }
}
