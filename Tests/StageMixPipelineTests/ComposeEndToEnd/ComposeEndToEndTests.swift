import Foundation
import StageMixTestSupport
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

/// Composes a synthetic capture and decodes the HLS back: what each tile shows and what the mix
/// sounds like at chosen instants, against the plan and the generator's known colours and tones.
/// The suites by concern are nested below (one file each), so they run one after another as one did.
@Suite("Compose end to end", .serialized)
struct ComposeEndToEndTests {
    /// Ana on stage throughout; Ben publishes from 0 but is pinned only at 2 s; Cy publishes while
    /// SIGNALLING_ONLY and is never on stage. Ana's camera is muted 5.0-6.5 s.
    static func scenario(pauseBen: ClosedRange<Int>? = nil) -> Scenario {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let ana = ScenarioParticipant.palette(0, id: "p-ana", name: "Ana", tracks: tracks("ana"))
        let ben = ScenarioParticipant.palette(1, id: "p-ben", name: "Ben", tracks: tracks("ben"))
        let cy = ScenarioParticipant.palette(2, id: "p-cy", name: "Cy", tracks: tracks("cy"))
        var events: [ManifestEvent] = [
            .joined(0, ana.id, role: "host"), .pinned(0, ana.id),
            .joined(0, ben.id, role: "speaker"),
            .joined(0, cy.id, mode: "SIGNALLING_ONLY", role: "speaker"),
        ]
        events += ["ana", "ben", "cy"].flatMap { k in [ManifestEvent.published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")] }
        events += [.pinned(2_000, ben.id), .muted(5_000, "TR_ana_cam"), .unmuted(6_500, "TR_ana_cam")]
        if let pause = pauseBen {
            events += [.streamState(pause.lowerBound, "TR_ben_cam", "paused"), .streamState(pause.upperBound, "TR_ben_cam", "active")]
        }
        let ordered = events.enumerated().sorted { ($0.element.atMs, $0.offset) < ($1.element.atMs, $1.offset) }.map(\.element)
        return Scenario(sessionId: "e2e", durationMs: 8_000, roles: CaptureManifest.Role.stageRoles,
                        participants: [ana, ben, cy], events: ordered)
    }

    struct Composed {
        var capture: Capture
        var plan: CompositionPlan
        var output: ComposedOutput
        var colors: [String: RGBColor]
        var tones: [String: Double]
        var root: URL
        var report: ComposeRun.Report
        var pausedAtMs: [String: Int] = [:]
        func cleanup() { try? FileManager.default.removeItem(at: root) }
    }

    static func compose(codec: SynthCodec, layout: String = "grid", segmentSeconds: Double = 2,
                        format: HLSMuxer.SegmentType = .mpegts, mp4: Bool = false, thumbnails: Double? = nil,
                        scenario: Scenario = scenario(), edits: SessionEdits = .none,
                        damage: (URL, ExpectedMedia) throws -> Void = { _, _ in }) throws -> Composed {
        MediaLog.setLevel(.error)
        let root = ScratchDirectory("e2e").url
        let captureDir = root.appendingPathComponent("capture")
        let expected = try CaptureSynthesizer(codec: codec).synthesize(scenario, to: captureDir)
        try damage(captureDir, expected)
        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve(layout), edits: edits)
        let out = root.appendingPathComponent("out")
        let report = try ComposeRun(capture: capture, document: doc,
                           settings: ComposeSettings(segmentSeconds: segmentSeconds, segmentFormat: format, preset: "ultrafast", mp4: mp4,
                                                     thumbnailSeconds: thumbnails))
            .run(out: out)
        let output = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        for name in ["timeline.json", "billing.json", "plan.json", "report.json"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name) written")
        }
        var colors: [String: RGBColor] = [:], tones: [String: Double] = [:]
        for p in expected.participants {
            colors[p.id] = try RGBColor(hex: p.color)
            tones[p.id] = p.toneHz
        }
        return Composed(capture: capture, plan: doc.plan, output: output, colors: colors, tones: tones, root: root, report: report)
    }

    /// Points inside a tile, away from the marker along the top: the lower half, on a 3x2 grid, less
    /// those in the band a bottom label may take (its margin and twice its size, more than the plate).
    static func probePoints(_ tile: PlannedTile) -> [(Int, Int)] {
        let r = tile.rect
        let points = [0.25, 0.5, 0.75].flatMap { fx in [0.6, 0.8].map { fy in
            (r.x + Int(Double(r.width) * fx), r.y + Int(Double(r.height) * fy)) } }
        guard let style = tile.label?.style, style.position.isBottom else { return points }
        let band = r.y + r.height - style.margin - 2 * style.size
        return points.filter { $0.1 < band }
    }

    static func checkTiles(_ c: Composed, at t: Double) throws {
        let frame = try #require(c.output.frame(at: t), "a frame at \(t) s")
        let interval = try #require(c.plan.interval(atMs: Int(t * 1000)))
        for (index, tile) in interval.tiles.enumerated() {
            // A tile drawn later (a picture-in-picture inset) covers part of this one.
            let above = interval.tiles.dropFirst(index + 1).map(\.rect)
            let want: RGBColor = tile.show == .placeholder
                ? RGBColor(r: 0x3A, g: 0x3F, b: 0x4B) : try #require(c.colors[tile.participantId])
            if tile.show == .placeholder {
                // The participant's name (or initials), in ink, a little above the middle of the slate.
                let (x, y) = try #require(PlaceholderCardTests.inkPoint(for: tile.name, in: tile.rect), "text of \(tile.name)")
                let got = try #require(frame.pixelRGB(x: x, y: y))
                #expect(got.isClose(to: RGBColor(r: 0xD0, g: 0xD4, b: 0xDC), tolerance: 40),
                        "t=\(t) \(tile.participantId)'s name at (\(x),\(y)): \(got)")
            }
            let points = probePoints(tile).filter { p in !above.contains { $0.contains(x: p.0, y: p.1) } }
            #expect(points.count >= 3, "\(tile.participantId): room to probe beside the label")
            for (x, y) in points {
                let got = try #require(frame.pixelRGB(x: x, y: y))
                #expect(got.isClose(to: want, tolerance: 24),
                        "t=\(t) \(tile.participantId) \(tile.show) at (\(x),\(y)): \(got), want \(want)")
            }
        }
        // The moving marker is where the session clock says it is: video timing is right.
        for tile in interval.tiles where tile.show != .placeholder {
            let layer = try #require(tile.layer)
            // A held frame is the last one before the pause; after a cut the session is read later than t.
            let markerMs = tile.show == .heldFrame ? Double(c.pausedAtMs[tile.trackId ?? ""] ?? 0) - 33
                : t * 1000 + Double(interval.sessionOffsetMs ?? 0)
            let shown = FitGeometry.fit(content: CanvasSize(width: layer.width, height: layer.height), into: tile.rect, mode: tile.fit)
            let m = TestPattern.marker(width: layer.width, height: layer.height, atMs: markerMs)
            let sx = Double(shown.destination.width) / Double(layer.width), sy = Double(shown.destination.height) / Double(layer.height)
            let x = shown.destination.x + Int((Double(m.x) + Double(m.width) / 2) * sx)
            let y = shown.destination.y + Int((Double(m.y) + Double(m.height) / 2) * sy)
            let got = try #require(frame.pixelRGB(x: x, y: y))
            #expect(got.isClose(to: .white, tolerance: 40), "t=\(t) \(tile.participantId): marker centre (\(x),\(y)) is \(got)")
        }
        // Nobody off stage anywhere: sample the whole frame on a coarse grid.
        let onStage = Set(interval.tiles.filter { $0.show != .placeholder }.map(\.participantId))
        for (id, color) in c.colors where !onStage.contains(id) {
            for y in stride(from: 4, to: frame.height, by: 24) {
                for x in stride(from: 4, to: frame.width, by: 24) {
                    let got = try #require(frame.pixelRGB(x: x, y: y))
                    #expect(!got.isClose(to: color, tolerance: 24), "t=\(t): \(id)'s colour at (\(x),\(y))")
                }
            }
        }
    }

    /// Decodes a JPEG with the media module's own demuxer and decoder.
    static func decodePicture(_ url: URL) throws -> VideoFrame {
        let demuxer = try Demuxer(url: url)
        let stream = try #require(demuxer.firstStream(ofType: .video))
        let decoder = try VideoDecoder(stream: stream)
        while let packet = try demuxer.readPacket() { try decoder.send(packet) }
        try decoder.send(nil)
        guard case .frame(let frame) = try decoder.receive() else { throw TestFailure("no picture in \(url.lastPathComponent)") }
        return frame
    }
}
