public import Foundation
import StageMixMedia
import StageMixPublishing

/// `compose --follow --live-out DIR`: while the session is recorded, an HLS EVENT playlist of the
/// segments composed so far, so a platform can offer the replay while the stream is still on;
/// `#EXT-X-ENDLIST` once the output is published. The segments are the output's own files, hard-linked
/// from the staging folder as each is closed (copied where a link cannot be made), never written
/// twice; each playlist is replaced whole (a rename), only ever growing. A ladder gets its master
/// playlist from its first segments, its bandwidths measured as the segments come.
///
/// DIR is StageMix's: made if absent, taken if empty, and otherwise only if an earlier live output
/// left its mark there (`.stagemix-live`); anything else is refused before the session is followed.
public final class LiveOutput: @unchecked Sendable {
    public let directory: URL
    static let marker = ".stagemix-live"
    /// Each segment linked, by its path under `hls/`, with the staging file's inode it was linked from.
    private var linked: [String: UInt64] = [:]
    /// An earlier live output is there: emptied at the first update, not before (a run that fails at
    /// once leaves it as it was).
    private var clearing: Bool
    /// The playlists as the output has them (ended), written once it is published.
    private var ended: [URL: String] = [:]
    /// The first failure, after which the live folder is left as it was last written.
    private(set) var failure: (any Error)?

    /// Takes `directory` for a live output (see the type's comment); throws an ``OutputRefusal`` when it is not StageMix's.
    public init(directory: URL) throws {
        self.directory = directory.standardizedFileURL
        let fm = FileManager.default
        let path = self.directory.path
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OutputRefusal(.notAFolder, "--live-out \(path) is a file, not a folder") }
            let names = try fm.contentsOfDirectory(atPath: path)
            guard names.isEmpty || names.contains(Self.marker) else {
                throw OutputRefusal(.foreignFolder, "--live-out \(path) holds files StageMix did not write; give an empty or new folder")
            }
            clearing = names.contains { $0 != Self.marker }
        } else {
            try fm.createDirectory(at: self.directory, withIntermediateDirectories: true)
            clearing = false
        }
        try Data().write(to: self.directory.appendingPathComponent(Self.marker))
    }

    /// Brings the live folder up to the staging folder's `hls` (``update(from:startedAt:master:ending:)``);
    /// a failure is told once on standard error and leaves the live folder as it was: the composition
    /// goes on without it.
    func follow(_ hls: URL, startedAt: Date?, master: @autoclosure () -> String?, ending: Bool = false) {
        guard failure == nil else { return }
        do {
            try update(from: hls, startedAt: startedAt, master: master(), ending: ending)
        } catch {
            failure = error
            try? FileHandle.standardError.write(contentsOf: Data("\nwarning: --live-out \(directory.path): \(error); the live playlist stops here\n".utf8))
        }
    }

    /// Once the output is published: the playlists as it has them, ended.
    func published() {
        guard failure == nil else { return }
        for (url, text) in ended.sorted(by: { $0.key.path < $1.key.path }) { try? Self.replace(url, with: text) }
    }

    /// Brings the live folder up to the staging folder's `hls`: every segment its media playlists list,
    /// then the playlists (as EVENT playlists, their program date times counted from `startedAt`), then
    /// a ladder's `master`. `ending`: the output is whole; its ended playlists wait for ``published()``.
    func update(from hls: URL, startedAt: Date?, master: String?, ending: Bool) throws {
        let fm = FileManager.default
        if clearing {
            for name in try fm.contentsOfDirectory(atPath: directory.path) where name != Self.marker {
                try fm.removeItem(at: directory.appendingPathComponent(name))
            }
            clearing = false
        }
        let playlists = try Self.mediaPlaylists(in: hls)
        for playlist in playlists {
            let relative = playlist.deletingLastPathComponent().path.dropFirst(hls.path.count).trimmingCharacters(in: ["/"])
            let folder = relative.isEmpty ? directory : directory.appendingPathComponent(relative)
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            let text = try String(contentsOf: playlist, encoding: .utf8)
            for name in Self.files(in: text) {
                try link(playlist.deletingLastPathComponent().appendingPathComponent(name),
                         as: relative.isEmpty ? name : "\(relative)/\(name)", into: folder.appendingPathComponent(name))
            }
            var live = text.replacingOccurrences(of: "#EXT-X-PLAYLIST-TYPE:VOD", with: "#EXT-X-PLAYLIST-TYPE:EVENT")
            if let startedAt, !text.contains("#EXT-X-ENDLIST") { live = HLSPlaylistDates.rewriting(live, start: startedAt) }
            let target = folder.appendingPathComponent(playlist.lastPathComponent)
            if ending {
                ended[target] = live
                live = live.split(separator: "\n", omittingEmptySubsequences: false).filter { $0 != "#EXT-X-ENDLIST" }.joined(separator: "\n")
            }
            try Self.replace(target, with: live)
        }
        if let master { try Self.replace(directory.appendingPathComponent(OutputFiles.playlist), with: master) }
    }

    /// The media playlists under `hls`: `index.m3u8` for one rendition, each rendition's and the audio's for a ladder.
    private static func mediaPlaylists(in hls: URL) throws -> [URL] {
        let fm = FileManager.default
        let top = hls.appendingPathComponent(OutputFiles.playlist)
        let folders = try fm.contentsOfDirectory(at: hls, includingPropertiesForKeys: [.isDirectoryKey])
            .filter { (try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        if folders.isEmpty { return fm.fileExists(atPath: top.path) ? [top] : [] }
        return folders.map { $0.appendingPathComponent(OutputFiles.playlist) }.filter { fm.fileExists(atPath: $0.path) }
    }

    /// The files a media playlist names: its segments and, for fragmented MP4, its initialisation segment.
    static func files(in playlist: String) -> [String] {
        var names: [String] = []
        for line in playlist.split(separator: "\n") {
            if line.hasPrefix("#EXT-X-MAP:"), let start = line.range(of: "URI=\"") {
                names.append(String(line[start.upperBound...].prefix { $0 != "\"" }))
            } else if !line.hasPrefix("#"), !line.isEmpty, !line.contains("/"), !line.contains("..") {
                names.append(String(line))
            }
        }
        return names
    }

    /// Links `source` into the live folder as `target`, unless the same file is there already; a
    /// source that is another file now (the join started over) replaces it.
    private func link(_ source: URL, as key: String, into target: URL) throws {
        var info = stat()
        guard stat(source.path, &info) == 0 else { return }
        let inode = UInt64(info.st_ino)
        if linked[key] == inode { return }
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent).linking")
        unlink(temporary.path)
        if Foundation.link(source.path, temporary.path) != 0 {
            try FileManager.default.copyItem(at: source, to: temporary)
        }
        guard rename(temporary.path, target.path) == 0 else {
            unlink(temporary.path)
            throw MediaError(.muxFailed, "cannot place '\(target.path)': \(String(cString: strerror(errno)))")
        }
        linked[key] = inode
    }

    private static func replace(_ url: URL, with text: String) throws {
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
