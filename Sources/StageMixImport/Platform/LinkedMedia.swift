import Foundation
import StageMixCapture

/// One media file a platform's document names (a key, path or URL), found in the folder by trailing
/// path and measured: each kind it should hold, with its first and last timestamps, or why it cannot
/// be used (not in the folder, empty, nothing of those kinds readable). Importers whose platform
/// writes a whole file per track (ZEGOCLOUD, Stream) place their tracks from it; a file that cannot
/// be used is still placed, as lost media, so composing reports its time.
struct LinkedMedia: Sendable {
    /// The reference as the document wrote it.
    var reference: String
    /// The file's path under the folder; nil when no file there ends like the reference.
    var relative: String?
    var url: URL?
    /// What the file holds of each kind asked for.
    var streams: [TrackKind: MediaHeader] = [:]
    /// Why the file cannot be used; nil when it can.
    var lost: String?
    /// A tie between files ending the same way.
    var warning: String?

    /// A file the importer wrote into the staging folder itself (a playlist's segments joined).
    var isWritten = false

    /// Finds `reference` in `folder` and reads `kinds` from it: a file with none of them readable is
    /// lost; one with some is used for those.
    init(_ reference: String, in folder: PlatformFolder, kinds: [TrackKind]) {
        self.reference = reference
        let match = folder.files.match(reference)
        relative = match.relative
        url = match.url
        warning = match.warning
        measure(kinds)
    }

    /// A file the importer wrote at `url`, named `media/<name>` in the capture, made from `reference`.
    init(written url: URL, as name: String, reference: String, kinds: [TrackKind]) {
        self.reference = reference
        self.url = url
        relative = name
        isWritten = true
        measure(kinds)
    }

    private mutating func measure(_ kinds: [TrackKind]) {
        guard let url, FileManager.default.fileExists(atPath: url.path) else {
            lost = "not in the folder"
            return
        }
        guard ((try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0) > 0 else {
            lost = "empty"
            return
        }
        for kind in kinds {
            if let header = MediaHeader(url, kind: kind == .audio ? .audio : .video, readingToEnd: true), header.endMs != nil {
                streams[kind] = header
            }
        }
        if streams.isEmpty { lost = "no \(kinds.map(\.rawValue).joined(separator: " or ")) that can be read" }
    }

    /// The file as the capture names it: `media/` and its path under the folder (or the reference's
    /// last component, for a file the folder lacks).
    var captureFile: String {
        "media/" + (relative ?? FileIndex.components(of: reference).last ?? "missing")
    }

    /// Where the capture's file comes from.
    var media: PlacedTrack.Media {
        guard lost == nil, let url else { return .lost }
        return isWritten ? .written : .linked(url)
    }

    /// Where `kind`'s first sample falls, for a file that starts at `startMs` (Unix ms): moved by how
    /// much later this kind starts in the file than its earliest stream (an MP4's AAC priming, say).
    func mediaStartMs(_ kind: TrackKind, fileStartsAt startMs: Int64) -> Int64 {
        guard let own = streams[kind]?.firstMs, let earliest = streams.values.map(\.firstMs).min() else { return startMs }
        return startMs + Int64(own - earliest)
    }

    /// How long `kind` lasts by the file's own timestamps; nil when it has none.
    func durationMs(_ kind: TrackKind) -> Int64? {
        guard let header = streams[kind], let end = header.endMs else { return nil }
        return Int64(end - header.firstMs)
    }
}

extension PlatformSession {
    /// Places `file` as tracks of `participant`, one per source, the file starting at `startMs` (Unix ms):
    /// each source whose kind the file holds, published for as long as it lasts by its own timestamps;
    /// or, for a lost file, every source for `listedMs` (the platform's duration), so composing reports
    /// that time as lost media. A video's size is its first picture's, else `size`.
    mutating func place(_ file: LinkedMedia, participant: String, sources: [TrackSource], startMs: Int64, listedMs: Int64?,
                        size: (width: Int, height: Int)? = nil) {
        if let warning = file.warning { warnings.append(warning) }
        for source in sources {
            let kind = source.kind
            guard file.lost != nil || file.streams[kind] != nil else { continue }
            let start = file.mediaStartMs(kind, fileStartsAt: startMs)
            let length = file.durationMs(kind) ?? listedMs ?? 0
            let header = file.streams[kind]
            add(PlacedTrack(id: "\(participant)-\(source.rawValue)", participantId: participant, source: source, file: file.captureFile,
                            media: file.media, mediaStartMs: start, fromMs: start, toMs: start + max(length, 0),
                            width: header?.width ?? size?.width, height: header?.height ?? size?.height))
        }
    }
}
