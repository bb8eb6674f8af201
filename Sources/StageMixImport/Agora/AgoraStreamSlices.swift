import Foundation
import StageMixCapture

/// Every slice of one uid's stream, gathered from all its playlists (the recorder's, a failover's
/// `bak<n>_` ones, the backup upload's `_<tick>_<index>` ones, in that order; a slice listed twice
/// is taken once) and from slice files no playlist lists, then measured. A playlist that Agora's
/// `fileList` marks `isPlayable: false` makes its slices lost; one that `fileList` names but the
/// folder lacks is a lost stream where `sliceStartTime` puts it.
struct AgoraStreamSlices {
    let key: AgoraStreamKey
    private(set) var slices: [AgoraSlice] = []
    private(set) var warnings: [String] = []
    private(set) var alignment: [String] = []

    static let maxPlaylistBytes = 16 << 20

    /// The kinds the stream carries.
    var kinds: [TrackKind] {
        switch key.stream {
        case .audio: [.audio]
        case .video: [.video]
        case .combined: [.audio, .video]
        }
    }

    /// The kind whose timestamps say whether slices continue one another.
    var referenceKind: TrackKind {
        key.stream == .audio || !slices.contains(where: { $0.streams[.video] != nil }) ? .audio : .video
    }

    init(key: AgoraStreamKey, files: [(path: String, name: AgoraFileName)], listed: [AgoraDocuments.ListedFile], folder: PlatformFolder) {
        self.key = key
        let mine = files.filter { $0.name.key == key }
        let playlists = mine.filter { $0.name.role == .playlist }
            .sorted { ($0.name.failover ?? -1, $0.name.isBackup ? 1 : 0, $0.path) < ($1.name.failover ?? -1, $1.name.isBackup ? 1 : 0, $1.path) }
        var unplayable: [String: String] = [:]  // playlist name -> the document saying so
        for file in listed where file.isPlayable == false { unplayable[(file.fileName as NSString).lastPathComponent] = file.document }
        for playlist in playlists { read(playlist.path, in: folder, unplayableBy: unplayable[(playlist.path as NSString).lastPathComponent]) }
        for file in mine where file.name.role == .slice && !slices.contains(where: { $0.name == (file.path as NSString).lastPathComponent }) {
            let name = (file.path as NSString).lastPathComponent
            slices.append(AgoraSlice(name: name, reference: file.path, url: folder.files.directory.appendingPathComponent(file.path),
                                     startMs: file.name.utcMs ?? 0, isWebM: file.name.fileExtension == "webm"))
        }
        let kinds = self.kinds
        let combined = kinds.count > 1
        for i in slices.indices { slices[i].measure(kinds, needsAll: !combined) }
        checkListed(listed, in: folder)
    }

    /// A playlist's slices, resolved beside the playlist first, else by trailing path anywhere under the folder.
    private mutating func read(_ path: String, in folder: PlatformFolder, unplayableBy document: String?) {
        let url = folder.files.directory.appendingPathComponent(path)
        let size = (try? url.resourceValues(forKeys: [.fileSizeKey]))?.fileSize ?? 0
        guard size <= Self.maxPlaylistBytes, let data = FileManager.default.contents(atPath: url.path) else {
            warnings.append("\(path): cannot be read (or larger than 16 MiB); its slices are found by their names alone")
            return
        }
        let playlist = AgoraPlaylist(text: String(decoding: data, as: UTF8.self))
        if playlist.unreadLines > 0 { warnings.append("\(path): \(playlist.unreadLines) lines not understood; skipped") }
        let folderOfPlaylist = (path as NSString).deletingLastPathComponent
        for entry in playlist.entries {
            let name = FileIndex.components(of: entry.uri).last ?? entry.uri
            guard let parsed = AgoraFileName(name), parsed.role == .slice, parsed.key == key, let start = parsed.utcMs else {
                warnings.append("\(path): \(entry.uri) is not a slice of uid \(key.uid)'s \(key.stream) by its name; skipped")
                continue
            }
            if slices.contains(where: { $0.name == name }) { continue }
            var file: URL?
            let beside = folderOfPlaylist.isEmpty ? entry.uri : folderOfPlaylist + "/" + entry.uri
            if !entry.uri.contains("://"), FileManager.default.fileExists(atPath: folder.files.directory.appendingPathComponent(beside).path) {
                file = folder.files.directory.appendingPathComponent(beside)
            } else {
                let match = folder.files.match(entry.uri)
                if let warning = match.warning { warnings.append(warning) }
                file = match.url
            }
            slices.append(AgoraSlice(name: name, reference: entry.uri, url: file, startMs: start, listedMs: entry.durationMs,
                                     rotation: entry.rotation, discontinuity: entry.discontinuity, isWebM: parsed.fileExtension == "webm",
                                     lost: document.map { "its playlist \((path as NSString).lastPathComponent) is marked isPlayable false in \($0)" }))
        }
        for start in playlist.trackStarts {
            alignment.append("\(path): EXT-X-AGORA-TRACK-EVENT START\(start.type.isEmpty ? "" : " of \(start.type)") at \(PlatformClock.rfc3339(start.atMs)); the slices' names place the media")
        }
    }

    /// What Agora's `fileList` says of this stream's playlists: a start to compare, or a playlist the folder lacks.
    private mutating func checkListed(_ listed: [AgoraDocuments.ListedFile], in folder: PlatformFolder) {
        for file in listed {
            let name = (file.fileName as NSString).lastPathComponent
            guard let parsed = AgoraFileName(name), parsed.key == key, parsed.role == .playlist else { continue }
            let first = slices.filter { $0.lost == nil }.map(\.startMs).min()
            if folder.files.match(file.fileName).url == nil {
                guard let start = file.sliceStartMs else {
                    warnings.append("\(file.document): \(file.fileName) is listed but not in the folder, and no sliceStartTime places it; left out")
                    continue
                }
                slices.append(AgoraSlice(name: name, reference: file.fileName, url: nil, startMs: start, isWebM: false,
                                         lost: "listed in \(file.document) but not in the folder"))
            } else if let start = file.sliceStartMs, let first {
                alignment.append("\(file.document): sliceStartTime of \(name) is \(start - first) ms from its first slice's name; the name is used")
            }
        }
    }
}
