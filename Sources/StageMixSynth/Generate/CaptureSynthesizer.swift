public import Foundation
import StageMixCapture
public import StageMixMedia

/// Writes a real capture from a scenario: `session.json`, one media file per track layer under
/// `media/`, and `expected.json` saying what each participant looks and sounds like.
///
/// The manifest is checked with `CaptureReader` before any media is encoded. Layer and audio
/// files are encoded side by side on threads of their own (blocking C work stays off Swift
/// Concurrency's pool), at most `concurrency` at a time.
public struct CaptureSynthesizer: Sendable {
    public var codec: SynthCodec
    /// How H.264 layers are coded: BT.709 limited by default; BT.601 or full range as many cameras
    /// record. VP8 is always BT.601 limited.
    public var h264ColourSpace: YUVColourSpace = .bt709
    public var concurrency: Int

    public init(codec: SynthCodec = .vp8, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.codec = codec
        self.concurrency = max(1, concurrency)
    }

    /// Synthesizes `scenario` into `directory`, replacing any `session.json`, `expected.json` and
    /// `media/` already there (nothing else in it is touched). Returns what was written.
    @discardableResult
    public func synthesize(_ scenario: Scenario, to directory: URL) throws -> ExpectedMedia {
        let problems = scenario.problems
        guard problems.isEmpty else { throw SynthError("scenario \(scenario.sessionId):\n  " + problems.joined(separator: "\n  ")) }
        let timelines = TrackMediaTimeline.all(in: scenario)
        let manifest = try manifestData(for: scenario, timelines: timelines)
        // The contract's own reader vets the events before minutes of encoding.
        _ = try CaptureReader.parse(manifest, directory: directory, file: "session.json (scenario \(scenario.sessionId))")

        let fm = FileManager.default
        let media = directory.appendingPathComponent("media")
        for name in ["media", CaptureReader.manifestName, "expected.json"] {
            let url = directory.appendingPathComponent(name)
            if fm.fileExists(atPath: url.path) { try fm.removeItem(at: url) }
        }
        try fm.createDirectory(at: media, withIntermediateDirectories: true)

        var jobs: [SynthJob] = []
        var expected = ExpectedMedia(
            sessionId: scenario.sessionId, codec: codec.rawValue, frameRate: scenario.frameRate,
            keyframeInterval: scenario.keyframeInterval, durationMs: scenario.durationMs,
            marker: "white square, side height/6, top at height/12, crossing left to right every \(Int(TestPattern.crossingMs)) ms of session time",
            participants: scenario.participants.map {
                .init(id: $0.id, name: $0.name, color: $0.color.uppercased(), toneHz: $0.audibleToneHz)
            },
            tracks: [])
        for (participant, track) in scenario.tracks {
            guard let timeline = timelines[track.id], let start = timeline.startOffsetMs else { continue }
            var entry = ExpectedMedia.Track(
                id: track.id, participantId: participant.id, source: track.source.rawValue, color: nil, toneHz: nil,
                startOffsetMs: start, published: timeline.published.map { [$0.lowerBound, $0.upperBound] },
                paused: timeline.paused.map { [$0.lowerBound, $0.upperBound] }, layers: nil, file: nil)
            if track.kind == .video {
                let color = track.color(of: participant).uppercased()
                // Checked by `scenario.problems` above.
                let pattern = TestPattern(color: try RGBColor(hex: color))
                let frames = timeline.videoFrames(frameRate: scenario.frameRate)
                entry.color = color
                entry.layers = track.effectiveLayers.map { layer in
                    let file = Self.file(track, layer.quality, codec.fileExtension)
                    jobs.append(.video(VideoLayerWriter(
                        url: directory.appendingPathComponent(file), codec: codec, width: layer.width, height: layer.height,
                        frameRate: scenario.frameRate, keyframeInterval: scenario.keyframeInterval,
                        pattern: pattern, colourSpace: codec.colourSpace(h264: h264ColourSpace)), frames))
                    return .init(quality: layer.quality.rawValue, width: layer.width, height: layer.height, file: file, frames: frames.count)
                }
            } else {
                let file = Self.file(track, nil, "ogg")
                entry.toneHz = participant.audibleToneHz
                entry.file = file
                jobs.append(.audio(ToneTrackWriter(url: directory.appendingPathComponent(file), toneHz: participant.audibleToneHz), timeline))
            }
            expected.tracks.append(entry)
        }

        try run(jobs.sorted { $0.cost > $1.cost })
        try manifest.write(to: directory.appendingPathComponent(CaptureReader.manifestName))
        try Self.encoder.encode(expected).write(to: directory.appendingPathComponent("expected.json"))
        return expected
    }

    /// `media/<track id>-<quality>.<ext>` for a layer, `media/<track id>.<ext>` for audio.
    static func file(_ track: ScenarioTrack, _ quality: LayerQuality?, _ ext: String) -> String {
        "media/\(track.id)\(quality.map { "-\($0.rawValue)" } ?? "").\(ext)"
    }

    static var encoder: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// The session.json bytes: participants, every track that is ever published, the events
    /// and `session.ended` at the scenario's duration. Needs no media, so the plan of a
    /// scenario can be worked out without encoding anything.
    public func manifestData(for scenario: Scenario) throws -> Data {
        try manifestData(for: scenario, timelines: TrackMediaTimeline.all(in: scenario))
    }

    func manifestData(for scenario: Scenario, timelines: [String: TrackMediaTimeline]) throws -> Data {
        let tracks = scenario.tracks.compactMap { participant, track -> CaptureManifest.Track? in
            guard let start = timelines[track.id]?.startOffsetMs else { return nil }
            let layers = track.kind == .video ? track.effectiveLayers.map {
                TrackLayer(quality: $0.quality, width: $0.width, height: $0.height,
                                      file: Self.file(track, $0.quality, codec.fileExtension))
            } : nil
            return CaptureManifest.Track(id: track.id, participantId: participant.id, kind: track.kind, source: track.source,
                                         startOffsetMs: start, layers: layers,
                                         file: track.kind == .audio ? Self.file(track, nil, "ogg") : nil)
        }
        let events = scenario.withDuration(scenario.durationMs).events + [ManifestEvent(atMs: scenario.durationMs, type: "session.ended")]
        let manifest = CaptureManifest(sessionId: scenario.sessionId, startedAt: scenario.startedAt, roles: scenario.roles,
                                       participants: scenario.participants.map { Participant(id: $0.id, name: $0.name) },
                                       tracks: tracks, events: events)
        return try manifest.encoded()
    }

    private func run(_ jobs: [SynthJob]) throws {
        let next = JobCursor(count: jobs.count)
        let failures = FailureList()
        DispatchQueue.concurrentPerform(iterations: min(concurrency, jobs.count)) { _ in
            while let i = next.take() {
                do {
                    try jobs[i].run()
                } catch {
                    failures.append("\(jobs[i].file): \(error)")
                }
            }
        }
        let messages = failures.messages
        if !messages.isEmpty { throw SynthError("could not write media:\n  " + messages.joined(separator: "\n  ")) }
    }
}

/// One file to encode.
enum SynthJob: Sendable {
    case video(VideoLayerWriter, [SynthFrame])
    case audio(ToneTrackWriter, TrackMediaTimeline)

    var file: String {
        switch self {
        case .video(let w, _): return w.url.lastPathComponent
        case .audio(let w, _): return w.url.lastPathComponent
        }
    }

    /// Rough encoding work, to start the biggest files first.
    var cost: Int {
        switch self {
        case .video(let w, let frames): return w.width * w.height * frames.count
        case .audio(_, let t): return ((t.endMs ?? 0) - (t.startOffsetMs ?? 0)) * 2_000
        }
    }

    func run() throws {
        switch self {
        case .video(let writer, let frames): try writer.write(frames)
        case .audio(let writer, let timeline): try writer.write(timeline)
        }
    }
}

/// Hands out job indices to worker threads.
private final class JobCursor: @unchecked Sendable {
    private let lock = NSLock()
    private var nextIndex = 0
    private let count: Int
    init(count: Int) { self.count = count }
    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        return nextIndex
    }
}

/// Collects failures from worker threads.
private final class FailureList: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ message: String) { lock.lock(); list.append(message); lock.unlock() }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return list }
}
