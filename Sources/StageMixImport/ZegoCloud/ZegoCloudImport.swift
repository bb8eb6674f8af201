public import Foundation
import StageMixCapture
import StageMixJSON

/// `stagemix import zegocloud DIR`: a ZEGOCLOUD single-stream cloud recording (`RecordMode` 1, mp4,
/// flv or hls; with `StreamType` 4 a video file and a separate aac per stream) as its bucket holds
/// it, with the recording status callback (or the DescribeRecordStatus response) the user saved
/// beside it (``ZegoDocuments``). Every file is placed at its `begin_timestamp`; every publishing
/// user is a participant shown by `user_name`, on stage while publishing; a stream whose id ends in
/// `_screensharing` (ZEGOCLOUD's UIKits name screen shares so) is a screen share.
/// See docs/import.md, "ZEGOCLOUD".
public struct ZegoCloudImport: PlatformImporter {
    public static let platform = "zegocloud"

    public init() {}

    public func read(_ folder: PlatformFolder, staging: URL) throws -> ImportedCapture {
        let documents = ZegoDocuments(folder.documents)
        if !documents.problems.isEmpty { throw ImportError(problems: documents.problems) }
        guard !documents.files.isEmpty else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "",
                                                     expected: "ZEGOCLOUD's recording status callback (detail.file_info) or DescribeRecordStatus response (Data.RecordFiles) saved as .json or .jsonl",
                                                     found: "no such document")])
        }
        var session = PlatformSession()
        session.alignment.append("Each file is placed at its begin_timestamp (Unix ms, when ZEGOCLOUD began recording it), its samples by their own "
                                 + "timestamps from there; it is published for as long as it lasts (its duration when it cannot be read).")
        var seen = Set<String>()
        for file in documents.files {
            let name = FileIndex.components(of: file.reference).last ?? file.reference
            guard seen.insert(name).inserted else { continue }  // the callback and a query response list it twice
            if file.format == "jpg" || name.lowercased().hasSuffix(".jpg") { continue }  // snapshots
            try place(file, named: name, in: folder, staging: staging, session: &session)
        }
        let listed = seen
        for path in folder.files.paths where Self.mediaExtensions.contains((path as NSString).pathExtension.lowercased())
            && !listed.contains((path as NSString).lastPathComponent) && !path.lowercased().hasSuffix(".ts") {
            session.warnings.append("\(path): listed in no file_info; left out (its user and start are known only from ZEGOCLOUD's callback)")
        }
        guard !session.tracks.isEmpty else {
            throw ImportError(problems: [JSONProblem(file: folder.directory.path, path: "", expected: "a recorded audio or video file in file_info",
                                                     found: "none (see the warnings: \(session.warnings.prefix(3).joined(separator: "; ")))")])
        }
        return session.capture(sessionId: documents.roomId ?? "zegocloud", platform: Self.platform)
    }

    static let mediaExtensions: Set<String> = ["mp4", "flv", "aac", "m3u8", "ts", "mp3"]

    /// One file's tracks: its kinds as `media_track_type` says (both, when it says nothing).
    private func place(_ file: ZegoDocuments.RecordedFile, named name: String, in folder: PlatformFolder, staging: URL,
                       session: inout PlatformSession) throws {
        let screen = file.streamId?.hasSuffix("_screensharing") == true
        let sources: [TrackSource] = switch file.trackType {
        case 1: [screen ? .screenShareAudio : .microphone]
        case 2: [screen ? .screenShare : .camera]
        default: [screen ? .screenShare : .camera, screen ? .screenShareAudio : .microphone]
        }
        let kinds = sources.map(\.kind)
        var linked: LinkedMedia
        if file.status == 5 {
            linked = LinkedMedia(file.reference, in: folder, kinds: [])
            linked.lost = "status 5 (upload to your storage and to ZEGOCLOUD's backup failed)"
        } else if name.lowercased().hasSuffix(".m3u8"), let playlist = folder.files.match(file.reference).relative {
            linked = try joined(playlist, reference: file.reference, in: folder, staging: staging, kinds: kinds, session: &session)
        } else {
            linked = LinkedMedia(file.reference, in: folder, kinds: kinds)
            if linked.lost != nil, file.status == 4 {
                linked.lost! += " (status 4: ZEGOCLOUD put it in its backup storage, kept 3 days; download it into the folder)"
            }
        }
        session.participant(file.userId, name: file.userName.flatMap { $0.isEmpty ? nil : $0 } ?? file.userId)
        session.place(linked, participant: file.userId, sources: sources, startMs: file.beginMs, listedMs: file.durationMs,
                      size: file.width.flatMap { w in file.height.map { (w, $0) } })
        if let lost = linked.lost {
            session.warnings.append("\(file.document): \(name) of user \(file.userId)\(file.streamId.map { ", stream \($0)," } ?? "") is \(lost); "
                                    + "reported as lost media from \(PlatformClock.rfc3339(file.beginMs))")
        } else if let listed = file.durationMs, let measured = kinds.compactMap({ linked.durationMs($0) }).max(), abs(listed - measured) > 1_000 {
            session.alignment.append("\(name): duration \(listed) ms in \(file.document), \(measured) ms by its own timestamps; the file's is used")
        }
    }

    /// An `hls` file: its playlist's segments joined into `media/<playlist>.ts` in the capture.
    private func joined(_ playlist: String, reference: String, in folder: PlatformFolder, staging: URL, kinds: [TrackKind],
                        session: inout PlatformSession) throws -> LinkedMedia {
        let name = ((playlist as NSString).lastPathComponent as NSString).deletingPathExtension + ".ts"
        let target = staging.appendingPathComponent("media/" + name)
        guard let warnings = try ZegoSegments.join(folder.directory.appendingPathComponent(playlist), relative: playlist, in: folder, into: target) else {
            var lost = LinkedMedia(reference, in: folder, kinds: [])
            lost.lost = "a playlist with no segment in the folder"
            return lost
        }
        session.warnings += warnings
        return LinkedMedia(written: target, as: name, reference: reference, kinds: kinds)
    }
}
