import Foundation
import StageMixCapture
import StageMixMedia

/// One slice of a uid's stream: its name's start, what its playlist says (duration, rotation, a
/// discontinuity before it), and what its file holds (each kind's first and last timestamps), or why
/// it cannot be used (missing, empty, unplayable, or its playlist marked `isPlayable` false).
struct AgoraSlice: Sendable {
    var name: String
    /// How the slice was found: the playlist's URI or the file's path under the folder.
    var reference: String
    var url: URL?
    /// Unix ms, from the name.
    var startMs: Int64
    var listedMs: Int?
    var rotation = 0
    var discontinuity = false
    var isWebM: Bool
    /// The file's first and last timestamps and picture size, by kind (its own timestamps, ms).
    var streams: [TrackKind: MediaHeader] = [:]
    /// Why it cannot be used; nil when it can.
    var lost: String?

    /// Its length: the file's, or what the playlist lists.
    var durationMs: Int {
        let measured = streams.values.compactMap { header in header.endMs.map { $0 - header.firstMs } }.max()
        return measured ?? listedMs ?? 0
    }

    /// Opens the file and reads each of `kinds`; a file that is not there, is empty, or has no packet
    /// of a kind (with `needsAll`; of any of them, without) is lost.
    mutating func measure(_ kinds: [TrackKind], needsAll: Bool) {
        guard lost == nil else { return }
        guard let url, FileManager.default.fileExists(atPath: url.path) else {
            lost = "no such file"
            return
        }
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0
        guard size > 0 else {
            lost = "empty"
            return
        }
        for kind in kinds {
            if let header = MediaHeader(url, kind: kind == .audio ? .audio : .video, readingToEnd: true), header.endMs != nil {
                streams[kind] = header
            } else if needsAll {
                lost = "no \(kind.rawValue) that can be read"
                return
            }
        }
        if streams.isEmpty { lost = "no audio or video that can be read" }
    }

    /// True when `next` continues this slice: both usable TS slices, the same rotation, no
    /// discontinuity between them, and `next` starting where this one ends, by the names' clock and by
    /// the files' own timestamps alike (within `tolerance` ms). Such slices are one stream cut in two
    /// (Agora cuts at 5.5 minutes or 50 MB, mid-GOP) and are decoded as one.
    func isContinued(by next: AgoraSlice, reference kind: TrackKind, tolerance: Int = 500) -> Bool {
        guard lost == nil, next.lost == nil, !isWebM, !next.isWebM, rotation == next.rotation, !next.discontinuity,
              let end = streams[kind]?.endMs, let nextFirst = next.streams[kind]?.firstMs else { return false }
        let wallGap = next.startMs - (startMs + Int64(durationMs))
        return abs(wallGap) <= Int64(tolerance) && abs(nextFirst - end) <= tolerance
    }
}
