public import Foundation
import StageMixCapture
import StageMixJSON

/// `stagemix import stream DIR`: a Stream (GetStream) call's individual recordings, an MKV per
/// participant and track type as Stream wrote them (keeping the publisher's resolution and
/// orientation changes), with the `call.recording_ready` webhooks (one per file) and any other of
/// Stream's JSON the user saved beside them (``StreamDocuments``). A file is tied to its user by its
/// name (``StreamFileName``); it is placed at its `start_time`, else at the start in its name. Users
/// are shown by Stream's `user.name` where a document gives it, else by their id.
/// See docs/import.md, "Stream".
public struct StreamImport: PlatformImporter {
    public static let platform = "stream"

    public init() {}

    public func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture {
        let documents = StreamDocuments(folder.documents)
        if !documents.problems.isEmpty { throw ImportError(problems: documents.problems) }
        var session = PlatformSession()
        session.warnings += documents.failures
        session.alignment.append("Each file is placed at its call_recording.start_time, else (a file no call.recording_ready lists) at the "
                                 + "Unix ms in its name; its samples by their own timestamps from there, published for as long as it lasts.")
        var placed = Set<String>()
        var sessions = Set<String>()
        for recording in documents.recordings where recording.recordingType.map({ $0 == "individual" }) ?? true {
            let name = FileIndex.components(of: recording.filename).last ?? recording.filename
            guard placed.insert(name).inserted else { continue }
            guard let parsed = StreamFileName(name) else {
                session.warnings.append("\(recording.document): \(name) does not name its user (…_individual_<user>_<type>_<startMs>.mkv); left out")
                continue
            }
            if let id = recording.sessionId, !id.isEmpty { sessions.insert(id) }
            // The URL's path is the file's key in the bucket; the filename alone when there is no URL.
            var file = LinkedMedia(recording.url ?? recording.filename, in: folder, kinds: parsed.type.sources.map(\.kind))
            if file.relative == nil, recording.url != nil { file = LinkedMedia(recording.filename, in: folder, kinds: parsed.type.sources.map(\.kind)) }
            let start = recording.startMs ?? parsed.startMs
            if let documented = recording.startMs, documented != parsed.startMs {
                session.alignment.append("\(name): start_time in \(recording.document) is \(documented - parsed.startMs) ms from the start in its name; start_time is used")
            }
            place(file, parsed, startMs: start, listedMs: recording.endMs.map { $0 - start }, from: recording.document, documents, &session)
        }
        for path in folder.files.paths {
            let name = (path as NSString).lastPathComponent
            guard !placed.contains(name), let parsed = StreamFileName(name) else { continue }
            placed.insert(name)
            let file = LinkedMedia(path, in: folder, kinds: parsed.type.sources.map(\.kind))
            session.alignment.append("\(path): listed in no call.recording_ready; placed at the start in its name")
            place(file, parsed, startMs: parsed.startMs, listedMs: nil, from: path, documents, &session)
        }
        guard !session.tracks.isEmpty else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "",
                                                     expected: "Stream individual recordings (…_individual_<user>_<audio_only|video_only|...>_<startMs>.mkv) or their call.recording_ready webhooks",
                                                     found: session.warnings.isEmpty ? "none" : "none that could be placed (\(session.warnings.prefix(3).joined(separator: "; ")))")])
        }
        for (user, joined) in documents.joins where session.tracks.contains(where: { $0.participantId == user }) {
            session.present(user, from: joined, to: documents.leaves[user] ?? joined)
        }
        if sessions.count > 1 { session.warnings.append("the files belong to \(sessions.count) call sessions (\(sessions.sorted().joined(separator: ", "))); all are imported on one clock") }
        return session.capture(sessionId: sessions.sorted().first ?? documents.callId ?? "stream", platform: Self.platform)
    }

    private func place(_ file: LinkedMedia, _ parsed: StreamFileName, startMs: Int64, listedMs: Int64?, from document: String,
                       _ documents: StreamDocuments, _ session: inout PlatformSession) {
        session.participant(parsed.user, name: documents.names[parsed.user] ?? parsed.user)
        session.place(file, participant: parsed.user, sources: parsed.type.sources, startMs: startMs, listedMs: listedMs)
        if let lost = file.lost {
            session.warnings.append("\(document): \((file.reference as NSString).lastPathComponent) of user \(parsed.user) is \(lost); "
                                    + "reported as lost media from \(PlatformClock.rfc3339(startMs))")
        }
    }
}
