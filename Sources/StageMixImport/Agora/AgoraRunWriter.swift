import Foundation
import StageMixCapture
import StageMixMedia

/// How a run's slices reach the capture. One usable slice is linked where it lies, as other importers
/// link their files. Contiguous TS slices are written one after the other into one file in the
/// staging folder (MPEG-TS is a stream of packets: the bytes joined are the stream uncut), so the
/// decoder reads across a cut that fell mid-GOP. A rotated picture gets its turn as a display matrix,
/// which MPEG-TS cannot carry: its video is remuxed (not re-encoded) into MP4 with the matrix, the
/// way a phone's MP4 says it.
struct AgoraRunWriter {
    let staging: URL
    var warnings: [String] = []

    init(staging: URL) { self.staging = staging }

    /// The capture file and where it comes from, for each of `kinds` of `run`.
    mutating func media(for run: AgoraRun, kinds: [TrackKind]) throws -> [TrackKind: (file: String, media: PlacedTrack.Media)] {
        let first = run.first
        if run.isLost { return Dictionary(uniqueKeysWithValues: kinds.map { ($0, ("media/" + first.name, PlacedTrack.Media.lost)) }) }
        let stem = (first.name as NSString).deletingPathExtension
        var base: (file: String, media: PlacedTrack.Media, url: URL)
        if run.slices.count == 1, let url = first.url {
            base = ("media/" + first.name, .linked(url), url)
        } else {
            // No `+` in a name StageMix makes: some S3 stores and tools read it as a space.
            let file = "media/\(stem)-and-\(run.slices.count - 1)-more.ts"
            let url = staging.appendingPathComponent(file)
            try Self.concatenate(run.slices.compactMap(\.url), into: url)
            base = (file, .written, url)
        }
        var out = Dictionary(uniqueKeysWithValues: kinds.map { ($0, (base.file, base.media)) })
        if run.rotation != 0, kinds.contains(.video) {
            if first.isWebM {
                warnings.append("\(first.reference): shown turned \(run.rotation)° by its playlist, but a WebM slice's picture cannot be turned yet; shown as stored")
            } else {
                let file = "media/\(stem).mp4", target = staging.appendingPathComponent(file)
                do {
                    try Self.remuxVideo(base.url, into: target, orientation: DisplayOrientation(quarterTurns: run.rotation / 90))
                    out[.video] = (file, .written)
                    if case .written = base.media, !kinds.contains(.audio) { try FileManager.default.removeItem(at: base.url) }
                } catch let error as MediaError where error.noSpaceLeft == nil {
                    try? FileManager.default.removeItem(at: target)
                    warnings.append("\(first.reference): shown turned \(run.rotation)° by its playlist, but its video cannot be remuxed to say so (\(error)); shown as stored")
                }
            }
        }
        return out
    }

    /// The slices' bytes, one after the other.
    static func concatenate(_ slices: [URL], into target: URL) throws {
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: target.path, contents: nil), let out = FileHandle(forWritingAtPath: target.path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: target.path])
        }
        defer { try? out.close() }
        for slice in slices {
            let input = try FileHandle(forReadingFrom: slice)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: 4 << 20), !chunk.isEmpty { try out.write(contentsOf: chunk) }
        }
    }

    /// The video stream of `source`, packet for packet, into an MP4 that says how it is shown.
    static func remuxVideo(_ source: URL, into target: URL, orientation: DisplayOrientation) throws {
        let demuxer = try Demuxer(url: source)
        guard let video = demuxer.firstStream(ofType: .video) else { throw MediaError(.invalidData, "\(source.lastPathComponent): no video stream") }
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let muxer = try Muxer(url: target, format: "mp4")
        let index = try muxer.addStream(copying: video)
        try muxer.setOrientation(orientation, ofStream: index)
        try muxer.writeHeader()
        while let packet = try demuxer.readPacket() {
            if packet.streamIndex == video.index { try muxer.write(packet, toStream: index) }
        }
        try muxer.finish()
    }
}
