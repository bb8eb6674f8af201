import Foundation

/// ZEGOCLOUD's `hls` output: a playlist per stream and MPEG-TS segments. A capture names one file a
/// track, so the segments are written one after the other into one TS file (MPEG-TS is a stream of
/// packets: the joined bytes are the stream uncut), each found beside the playlist or else anywhere
/// under the folder by trailing path.
enum ZegoSegments {
    static let maxPlaylistBytes = 16 << 20

    /// Joins the segments `playlist` (at `relative` under the folder) lists into `target`; returns the
    /// warnings (segments missing), or nil when the playlist cannot be read or lists no segment there.
    static func join(_ playlist: URL, relative: String, in folder: PlatformFolder, into target: URL) throws -> [String]? {
        let size = (try? playlist.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0
        guard size <= maxPlaylistBytes, let data = FileManager.default.contents(atPath: playlist.path) else { return nil }
        let besides = (relative as NSString).deletingLastPathComponent
        var segments: [URL] = [], warnings: [String] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let uri = line.trimmingCharacters(in: .whitespaces)
            guard !uri.isEmpty, !uri.hasPrefix("#") else { continue }
            let beside = folder.directory.appendingPathComponent(besides.isEmpty ? uri : besides + "/" + uri)
            if !uri.contains("://"), FileManager.default.fileExists(atPath: beside.path) {
                segments.append(beside)
            } else if let url = folder.files.match(uri).url {
                segments.append(url)
            } else {
                warnings.append("\(relative): segment \(uri) is not in the folder; the stream is joined without it")
            }
        }
        guard !segments.isEmpty else { return nil }
        try AgoraRunWriter.concatenate(segments, into: target)
        return warnings
    }
}
