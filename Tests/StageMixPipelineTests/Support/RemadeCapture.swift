import Foundation
import StageMixTestSupport
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
import StageMixPipeline
import StageMixSynth

/// A synthesized capture some of whose files a test remakes with the ffmpeg CLI (other tools'
/// media, not only the generator's), then composes and reads back. Removed by `cleanup()`.
struct RemadeCapture {
    let root: URL
    let directory: URL
    let expected: ExpectedMedia

    init(codec: SynthCodec, scenario: Scenario, name: String = #function) throws {
        MediaLog.setLevel(.error)
        root = ScratchDirectory("remade").url
        directory = root.appendingPathComponent("capture")
        expected = try CaptureSynthesizer(codec: codec).synthesize(scenario, to: directory)
    }

    func cleanup() { try? FileManager.default.removeItem(at: root) }

    /// Ana and Ben, both publishing camera and microphone from 0; Ana pinned from 0, Ben from `benPinnedAtMs`.
    static func anaAndBen(durationMs: Int, benPinnedAtMs: Int = 0) -> Scenario {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let ana = ScenarioParticipant.palette(0, id: "p-ana", name: "Ana", tracks: tracks("ana"))
        let ben = ScenarioParticipant.palette(1, id: "p-ben", name: "Ben", tracks: tracks("ben"))
        var events: [ManifestEvent] = [.joined(0, ana.id, role: "host"), .joined(0, ben.id, role: "speaker"), .pinned(0, ana.id)]
        events += ["ana", "ben"].flatMap { k in [ManifestEvent.published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")] }
        events.append(.pinned(benPinnedAtMs, ben.id))
        let ordered = events.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        return Scenario(sessionId: "remade", durationMs: durationMs, roles: CaptureManifest.Role.stageRoles, participants: [ana, ben], events: ordered)
    }

    /// Runs the ffmpeg CLI (no stdin, errors only) and returns what it wrote to stdout.
    @discardableResult
    static func ffmpeg(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-nostdin", "-v", "error", "-y"] + arguments
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("ffmpeg \(arguments) failed") }
        return data
    }

    func track(_ id: String) throws -> ExpectedMedia.Track {
        try #require(expected.tracks.first { $0.id == id })
    }

    func participant(_ id: String) throws -> ExpectedMedia.Participant {
        try #require(expected.participants.first { $0.id == id })
    }

    /// Renames `file` to `renamed` in session.json (the media file itself is the caller's).
    func rename(_ file: String, to renamed: String) throws {
        let url = directory.appendingPathComponent("session.json")
        let manifest = try String(contentsOf: url, encoding: .utf8)
        try manifest.replacingOccurrences(of: file, with: renamed).write(to: url, atomically: true, encoding: .utf8)
    }

    struct Composed {
        var document: PlanDocument
        var report: ComposeRun.Report
        var output: ComposedOutput

        /// The tile of `participant` at `t` and the output's colour at a point of it (x, y as fractions of the tile).
        func tile(_ participant: String, at t: Double, x: Double = 0.5, y: Double = 0.75) throws -> (tile: PlannedTile, colour: RGBColor) {
            let tile = try #require(document.plan.interval(atMs: Int(t * 1000))?.tiles.first { $0.participantId == participant })
            let frame = try #require(output.frame(at: t), "a frame at \(t) s")
            let colour = try #require(frame.pixelRGB(x: tile.rect.x + Int(Double(tile.rect.width) * x),
                                                      y: tile.rect.y + Int(Double(tile.rect.height) * y)))
            return (tile, colour)
        }
    }

    /// Reads the capture as it is now, composes it with the grid layout into `root/out-N`, and reads the HLS back.
    /// A speaker layout's speakers come from the microphones, as `stagemix compose` works them out.
    /// `canvas`: the layout's canvas made another size (tiles that are not the layers' sizes).
    /// `labels` false: no names over the pictures (`--labels off`).
    func compose(_ settings: ComposeSettings = ComposeSettings(preset: "ultrafast"), layout: String = "grid",
                 canvas: CanvasSize? = nil, labels: Bool = true) throws -> Composed {
        let capture = try CaptureReader.read(directory: directory)
        var resolved = try Layout.resolve(layout)
        if let canvas { resolved.canvas = canvas }
        if !labels { resolved = resolved.withoutLabels }
        let document = try PlanDocument(capture: capture, layout: resolved) {
            try SpeakerAnalysis(capture: capture, timeline: $0).speakers()
        }
        let out = root.appendingPathComponent("out-\(UUID().uuidString.prefix(8))")
        let report = try ComposeRun(capture: capture, document: document, settings: settings).run(out: out)
        return Composed(document: document, report: report, output: try ComposedOutput(hls: out.appendingPathComponent("hls")))
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
