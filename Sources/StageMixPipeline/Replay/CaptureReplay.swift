public import Foundation
public import StageMixCapture

/// Plays a finished capture out as a recorder writes one while the session goes on (the contract's
/// "A capture in progress"; `stagemix replay`): every media file written again packet by packet as
/// the session's clock passes each packet, flushed, and `session.json` replaced every `tick` with the
/// events so far and `recording.completeToMs`, then, at the end, the whole document. The session's
/// clock runs at `speed` times real time. What it writes is what `compose --follow` reads, so a new
/// user can watch follow mode work, and tests and the benchmark have a real producer.
public final class CaptureReplay {
    public let capture: Capture
    public let folder: URL
    public let speed: Double
    public let tickSeconds: Double
    /// How far behind the newest packet written `completeToMs` is kept: a reader that places a sample
    /// a little later than this writer did (another rounding of its first timestamp) still finds it written.
    static let marginMs = 250

    public struct Summary: Sendable {
        public var files = 0
        public var packets = 0
        public var versions = 0
        public var endMs = 0
    }

    public init(capture: Capture, into folder: URL, speed: Double = 1, tickSeconds: Double = 1) {
        self.capture = capture
        self.folder = folder
        self.speed = speed
        self.tickSeconds = tickSeconds
    }

    /// Runs until the session's end (or until `shouldStop` says so: then the capture stays in progress,
    /// as a recorder that died leaves it). `progress` hears each version's `completeToMs`.
    public func run(shouldStop: () -> Bool = { false }, progress: (Int) -> Void = { _ in }) throws -> Summary {
        let manifest = try ReplayManifest(data: Data(contentsOf: capture.directory.appendingPathComponent(CaptureReader.manifestName)))
        var files: [ReplayedFile] = []
        var seen = Set<String>()
        for track in capture.tracks {
            let paths = track.kind == .audio ? [(track.file ?? "", track.startOffsetMs)] : track.layers.map { ($0.file, track.startOffsetMs(of: $0)) }
            for (path, offset) in paths where !path.isEmpty && seen.insert(path).inserted {
                // A file that is missing or unreadable stays so in the copy: composing reports it as lost.
                guard FileManager.default.fileExists(atPath: capture.directory.appendingPathComponent(path).path) else { continue }
                files.append(try ReplayedFile(source: path, in: capture.directory, into: folder, startOffsetMs: offset))
            }
        }
        var summary = Summary(files: files.count, endMs: manifest.endMs)
        let start = Date()
        var completeToMs = 0
        try manifest.write(completeToMs: 0, in: folder)
        summary.versions += 1
        while completeToMs < manifest.endMs {
            if shouldStop() { return summary }
            let next = min(manifest.endMs, completeToMs + max(1, Int(tickSeconds * 1000 * speed)))
            // Wait until the session's clock reaches the next version (speed times real time).
            let due = start.addingTimeInterval(Double(next) / 1000 / speed)
            while Date() < due {
                if shouldStop() { return summary }
                Thread.sleep(forTimeInterval: min(0.05, due.timeIntervalSinceNow))
            }
            // Media first: every sample before the new completeToMs is written and flushed before it is said.
            for file in files { try file.write(before: Double(next + Self.marginMs) / 1000) }
            completeToMs = next
            if completeToMs < manifest.endMs {
                try manifest.write(completeToMs: completeToMs, in: folder)
                summary.versions += 1
                progress(completeToMs)
            }
        }
        for file in files { try file.write(before: .infinity) }
        summary.packets = files.reduce(0) { $0 + $1.packets }
        try manifest.write(completeToMs: nil, in: folder)
        summary.versions += 1
        progress(manifest.endMs)
        return summary
    }
}
