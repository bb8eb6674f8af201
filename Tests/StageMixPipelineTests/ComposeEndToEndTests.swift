import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth

/// Composes a synthetic capture and decodes the HLS back: what each tile shows and what the mix
/// sounds like at chosen instants, against the plan and the generator's known colours and tones.
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
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-e2e-\(UUID().uuidString)")
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

    @Test(arguments: [SynthCodec.vp8, .h264])
    func tilesShowWhoThePlanPutsThere(codec: SynthCodec) throws {
        let c = try Self.compose(codec: codec)
        defer { c.cleanup() }
        // Alone, two side by side, Ana muted (placeholder), both again.
        #expect(c.plan.interval(atMs: 1_000)?.tiles.map(\.participantId) == ["p-ana"])
        #expect(c.plan.interval(atMs: 3_000)?.tiles.map(\.participantId) == ["p-ana", "p-ben"])
        for t in [1.0, 3.0, 5.5, 7.0] { try Self.checkTiles(c, at: t) }
        // The background shows above and below the two 16:9 tiles.
        let frame = try #require(c.output.frame(at: 3.0))
        let background = c.plan.background
        #expect(try #require(frame.pixelRGB(x: 640, y: 40)).isClose(to: background, tolerance: 12))
    }

    @Test func theMixHasTheTonesOfWhoIsOnStageAndNoOthers() throws {
        let c = try Self.compose(codec: .vp8)
        defer { c.cleanup() }
        let ana = c.tones["p-ana"]!, ben = c.tones["p-ben"]!, cy = c.tones["p-cy"]!
        let early = c.output.audio(from: 0.5, to: 1.5)   // Ana alone
        let later = c.output.audio(from: 3.0, to: 4.0)   // Ana and Ben
        let reference = tonePower(ana, in: early)
        #expect(reference > 1e-3, "Ana is heard")
        #expect(tonePower(ben, in: early) < reference / 100, "Ben is not heard before he is pinned")
        #expect(tonePower(ben, in: later) > reference / 10, "Ben is heard once on stage")
        #expect(tonePower(ana, in: later) > reference / 10)
        for block in [early, later] { #expect(tonePower(cy, in: block) < reference / 100, "Cy is never heard") }
        // The limiter keeps the sum in range.
        #expect(c.output.audio.allSatisfy { abs($0) <= 1.0 })
    }

    /// `--edits`: Ben left out from 3 s to the end, Ana's microphone muted from 0.5 to 1.5 s. After
    /// 3 s Ana fills the grid alone, Ben's colour is nowhere and his tone is not heard; Ana is silent
    /// while muted; the output keeps its length and timeline.json says what was edited.
    @Test func anExcludedParticipantIsNeitherSeenNorHeard() throws {
        let edits = SessionEdits(exclude: [.init(participantId: "p-ben", spans: [.init(fromMs: 3_000, toMs: 8_000)])],
                                 mute: [.init(participantId: "p-ana", span: .init(fromMs: 500, toMs: 1_500))])
        let c = try Self.compose(codec: .vp8, edits: edits)
        defer { c.cleanup() }
        #expect(c.plan.interval(atMs: 2_500)?.tiles.count == 2)
        #expect(c.plan.interval(atMs: 4_000)?.tiles.map(\.participantId) == ["p-ana"])
        #expect(c.plan.interval(atMs: 4_000)?.tiles.first?.rect.width == c.plan.canvas.width, "the grid reflows to Ana alone")
        // checkTiles also scans the whole frame for the colour of everyone not shown.
        for t in [2.5, 3.5, 5.8, 7.5] { try Self.checkTiles(c, at: t) }
        let ana = c.tones["p-ana"]!, ben = c.tones["p-ben"]!
        let reference = tonePower(ana, in: c.output.audio(from: 2.1, to: 2.9))
        #expect(reference > 1e-3)
        #expect(tonePower(ben, in: c.output.audio(from: 2.1, to: 2.9)) > reference / 10, "Ben is heard before he is left out")
        #expect(tonePower(ben, in: c.output.audio(from: 3.1, to: 7.9)) < reference / 100, "Ben is never heard after 3 s")
        #expect(tonePower(ana, in: c.output.audio(from: 0.6, to: 1.4)) < reference / 100, "Ana is muted 0.5-1.5 s")
        #expect(tonePower(ana, in: c.output.audio(from: 3.1, to: 7.9)) > reference / 10)
        #expect(c.output.frames.count == 8 * 30)
        let timeline = try String(contentsOf: c.root.appendingPathComponent("out/timeline.json"), encoding: .utf8)
        #expect(timeline.contains("\"edits\""), "timeline.json says what was edited")
    }

    /// `trim` and `cut`: session 1-3 s cut and everything after 7.5 s trimmed leave 5.5 s of output,
    /// session 0-1 s then 3-7.5 s. Ben, pinned at 2 s (in the cut), is on stage from 1 s of the
    /// output; each tile's marker shows the session's time, not the output's; Ana's microphone muted
    /// at 4-5 s of the session is silent at 2-3 s of the output; billing and the stream's events count
    /// the output's time.
    @Test func cutTimeIsGoneAndWhatIsKeptPlaysAsRecorded() throws {
        let edits = SessionEdits(mute: [.init(participantId: "p-ana", span: .init(fromMs: 4_000, toMs: 5_000))],
                                 trim: .init(endMs: 7_500), cut: [.init(fromMs: 1_000, toMs: 3_000)])
        let c = try Self.compose(codec: .vp8, edits: edits)
        defer { c.cleanup() }
        #expect(c.output.frames.count == 165, "5.5 s at 30 fps: the session less exactly what was taken out")
        #expect(abs(Double(c.output.audio.count) / 48_000 - 5.5) < 1.0 / 30)
        #expect(c.output.segments.map(\.duration) == [2, 2, 1.5])
        #expect(c.plan.interval(atMs: 1_000)?.tiles.map(\.participantId) == ["p-ana", "p-ben"])
        #expect(c.plan.interval(atMs: 1_000)?.sessionOffsetMs == 2_000)
        // Session 0.5, 3.5, 5.5 (Ana's camera muted) and 7.2 s.
        for t in [0.5, 1.5, 3.5, 5.2] { try Self.checkTiles(c, at: t) }
        let ana = c.tones["p-ana"]!, ben = c.tones["p-ben"]!
        let reference = tonePower(ana, in: c.output.audio(from: 1.1, to: 1.9))
        #expect(reference > 1e-3)
        #expect(tonePower(ben, in: c.output.audio(from: 0.1, to: 0.9)) < reference / 100, "Ben is not on stage before the cut")
        #expect(tonePower(ben, in: c.output.audio(from: 1.1, to: 1.9)) > reference / 10, "Ben is heard right after it")
        #expect(tonePower(ana, in: c.output.audio(from: 2.1, to: 2.9)) < reference / 100, "Ana's mute follows the session's clock")
        #expect(tonePower(ana, in: c.output.audio(from: 3.1, to: 3.9)) > reference / 10)
        let billing = try String(contentsOf: c.root.appendingPathComponent("out/billing.json"), encoding: .utf8)
        #expect(billing.contains("\"durationMs\" : 5500"), "billing counts the output")
        // Ben's join is marked where the output resumes, on the output's clock (18:00:01).
        #expect(c.output.playlist.contains("X-EVENT=\"joined-stage\"") && c.output.playlist.contains("START-DATE=\"2026-11-20T18:00:01.000Z\""),
                "\(c.output.playlist)")
        let timeline = try String(contentsOf: c.root.appendingPathComponent("out/timeline.json"), encoding: .utf8)
        #expect(timeline.contains("\"cut\"") && timeline.contains("\"output\""), "timeline.json says what was taken out and where the rest went")
    }

    @Test func segmentsKeyframesDurationAndSync() throws {
        let c = try Self.compose(codec: .vp8)
        defer { c.cleanup() }
        let out = c.output
        #expect(out.playlist.contains("#EXT-X-PLAYLIST-TYPE:VOD"))
        #expect(out.playlist.contains("#EXT-X-ENDLIST"))
        #expect(out.playlist.contains("#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:00.000Z"))
        #expect(out.playlist.contains("#EXT-X-PROGRAM-DATE-TIME:2026-11-20T18:00:02.000Z"))
        #expect(out.segments.map(\.duration) == [2, 2, 2, 2])
        for segment in out.segments {
            let demuxer = try Demuxer(url: out.directory.appendingPathComponent(segment.file))
            let video = try #require(demuxer.firstStream(ofType: .video))
            var first: Packet?
            while let p = try demuxer.readPacket() { if p.streamIndex == video.index { first = p; break } }
            #expect(first?.isKeyframe == true, "\(segment.file) starts with a keyframe")
        }
        // Exactly the session: 8 s at 30 fps, and 8 s of audio.
        #expect(out.frames.count == 240)
        #expect(abs(Double(out.audio.count) / 48_000 - 8.0) < 1.0 / 30)
        // Audio and video start together (AAC priming aside) within one frame.
        #expect(abs(out.firstAudio + 1024.0 / 48_000 - out.firstVideo) < 1.0 / 30)
    }

    @Test func decodesOnlyWhatIsShownAtTheLayerThatFits() throws {
        let c = try Self.compose(codec: .vp8)
        defer { c.cleanup() }
        let decoded = c.report.decodedFrames
        // Cy is never on stage: none of Cy's files is even opened.
        #expect(!decoded.keys.contains { $0.contains("cy") }, "\(decoded)")
        // Ana fills the canvas alone for 2 s (high layer), then shares it (medium layer from the next keyframe).
        let high = decoded.first { $0.key.contains("ana") && $0.key.contains("high") }?.value ?? 0
        let medium = decoded.first { $0.key.contains("ana") && $0.key.contains("medium") }?.value ?? 0
        #expect((55...92).contains(high), "high layer frames: \(high)")
        // 2-5 s, then muted (decoder closed) until 6.5 s, reopened at the 6 s keyframe: about 150.
        #expect((140...160).contains(medium), "medium layer frames: \(medium)")
        #expect(!decoded.keys.contains { $0.contains("low") }, "no tile is small enough for a low layer: \(decoded)")
        #expect(!decoded.keys.contains { $0.contains("ben") && $0.contains("high") })
    }

    @Test func reportsWhereTheCPUWent() throws {
        let c = try Self.compose(codec: .vp8)
        defer { c.cleanup() }
        let cpu = c.report.cpuSeconds
        // The decoding thread did real work (8 s of VP8 and Opus), and it is part of, not all of, the total.
        #expect(cpu.decodeThread > 0.01, "\(cpu)")
        #expect(abs(cpu.decodeThread + cpu.encodeMux + cpu.loudnessPass - cpu.total) < 0.002, "\(cpu)")
        // The loudness pass decoded both microphones once more: a real cost, small next to the rest.
        #expect(cpu.loudnessPass > 0 && cpu.loudnessPass < cpu.encodeMux, "\(cpu)")
        // x264 and AAC cost more than decoding these small layers.
        #expect(cpu.encodeMux > cpu.decodeThread, "\(cpu)")
        // Each stage was charged, and together they are nearly all of the thread (the rest is its loop).
        #expect(cpu.videoDecode > 0 && cpu.videoCompose > 0 && cpu.audioDecodeMix > 0, "\(cpu)")
        let stages = cpu.videoDecode + cpu.videoCompose + cpu.audioDecodeMix
        #expect(stages <= cpu.decodeThread + 0.002 && stages > cpu.decodeThread * 0.8, "\(cpu)")
    }

    @Test func aPausedStreamHoldsItsLastFrameThenShowsThePlaceholder() throws {
        var c = try Self.compose(codec: .vp8, scenario: Self.scenario(pauseBen: 3_000...7_500))
        defer { c.cleanup() }
        c.pausedAtMs["TR_ben_cam"] = 3_000
        // A pause is no loss: nothing was to be shown there, and its edges leave no stray stretch.
        #expect(c.report.losses.isEmpty, "\(c.report.losses)")
        let held = try #require(c.plan.interval(atMs: 4_500)?.tiles.first { $0.participantId == "p-ben" })
        #expect(held.show == .heldFrame)
        #expect(c.plan.interval(atMs: 6_500)?.tiles.first { $0.participantId == "p-ben" }?.show == .placeholder)
        for t in [4.5, 5.9, 6.5, 7.8] { try Self.checkTiles(c, at: t) }
    }

    /// Picture in picture: Ana's live camera fills the canvas and is drawn anew every frame; Ben's inset
    /// above it holds a frame (paused from 3 s), then shows his placeholder. The inset is drawn again
    /// over each new main picture, though its own picture has not changed.
    /// The same with the inset at the main picture's z, drawn after it by file order.
    @Test(arguments: ["built-in", "same z"])
    func anInsetHoldingAFrameStaysOnTopOfALiveMainPicture(variant: String) throws {
        var layout = "pip"
        if variant == "same z" {
            var pip = try #require(Layout.builtin(named: "pip"))
            pip.regions = pip.regions.map { var r = $0; r.z = 0; return r }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("pip-same-z-\(UUID().uuidString).json")
            try JSONEncoder().encode(pip).write(to: file)
            layout = file.path
        }
        defer { if layout != "pip" { try? FileManager.default.removeItem(atPath: layout) } }
        var c = try Self.compose(codec: .vp8, layout: layout, scenario: Self.scenario(pauseBen: 3_000...7_500))
        defer { c.cleanup() }
        c.pausedAtMs["TR_ben_cam"] = 3_000
        #expect(c.plan.interval(atMs: 4_500)?.tiles.map { "\($0.region) \($0.participantId) \($0.show)" }
                == ["main p-ana video", "inset p-ben heldFrame"])
        for t in [4.5, 5.9, 6.5, 7.8] { try Self.checkTiles(c, at: t) }
    }

    @Test func aMissingLayerFileIsReplacedByTheClosestReadableLayer() throws {
        var lostFile = ""
        let c = try Self.compose(codec: .vp8) { dir, expected in
            // Ana alone fills the canvas from her high layer: that file is gone.
            let ana = try #require(expected.tracks.first { $0.id == "TR_ana_cam" })
            lostFile = try #require(ana.layers?.first { $0.quality == "high" }?.file)
            try FileManager.default.removeItem(at: dir.appendingPathComponent(lostFile))
        }
        defer { c.cleanup() }
        #expect(c.report.lostMedia.keys.contains { $0.contains("TR_ana_cam") || $0.contains(lostFile) }, "\(c.report.lostMedia)")
        let frame = try #require(c.output.frame(at: 1.0))
        let tile = try #require(c.plan.interval(atMs: 1_000)?.tiles.first)
        #expect(tile.layer?.quality == .high)
        for (x, y) in Self.probePoints(tile) {
            #expect(try #require(frame.pixelRGB(x: x, y: y)).isClose(to: c.colors["p-ana"]!, tolerance: 24), "(\(x),\(y))")
        }
        #expect((c.report.decodedFrames.first { $0.key.contains("ana") && $0.key.contains("medium") }?.value ?? 0) > 180, "the medium layer stood in for 0-2 s as well")
    }

    /// A microphone recorded by another tool: AAC at 44.1 kHz stereo in MP4, resampled into the mix.
    @Test func aacAt44kHzFromAnotherToolIsResampledIntoTheMix() throws {
        var anaTone = 0.0
        let c = try Self.compose(codec: .h264) { dir, expected in
            anaTone = try #require(expected.participants.first { $0.id == "p-ana" }?.toneHz)
            let file = "media/ana-mic-aac.m4a"
            let rate = 44_100, count = rate * 8
            let tone = (0..<count).map { Float(0.3 * sin(2 * Double.pi * anaTone * Double($0) / Double(rate))) }
            let encoder = try AudioEncoder(sampleRate: rate, channels: 2, bitrate: 128_000)
            let muxer = try Muxer(url: dir.appendingPathComponent(file), format: "mp4")
            let stream = try muxer.addStream(from: encoder)
            try muxer.writeHeader()
            func drain() throws { while case .packet(let p) = try encoder.receive() { try muxer.write(p, toStream: stream) } }
            for start in stride(from: 0, to: count, by: 4410) {
                let block = Array(tone[start..<min(count, start + 4410)])
                try encoder.send(planar: [block, block])
                try drain()
            }
            try encoder.sendEndOfStream()
            try drain()
            try muxer.finish()
            let manifest = dir.appendingPathComponent("session.json")
            let text = try String(contentsOf: manifest, encoding: .utf8)
            let original = try #require(expected.tracks.first { $0.id == "TR_ana_mic" }?.file)
            try text.replacingOccurrences(of: "\"\(original)\"", with: "\"\(file)\"").write(to: manifest, atomically: true, encoding: .utf8)
        }
        defer { c.cleanup() }
        #expect(c.report.lostMedia.isEmpty, "\(c.report.lostMedia)")
        let early = c.output.audio(from: 0.5, to: 1.5)
        #expect(tonePower(anaTone, in: early) > 1e-3, "Ana's 44.1 kHz AAC tone is in the 48 kHz mix")
        #expect(tonePower(anaTone * 44_100 / 48_000, in: early) < tonePower(anaTone, in: early) / 100, "at its own pitch")
    }

    @Test func fmp4SegmentsPlayToo() throws {
        let c = try Self.compose(codec: .vp8, segmentSeconds: 4, format: .fmp4)
        defer { c.cleanup() }
        #expect(c.output.playlist.contains("#EXT-X-MAP:URI=\"init.mp4\""))
        #expect(c.output.segments.map(\.duration) == [4, 4])
        try Self.checkTiles(c, at: 3.0)
    }

    /// `--mp4`: one encode, two containers. The MP4 has its index (`moov`) before the media, and
    /// decodes to the same frames, tiles and A/V offset as the HLS beside it, which still plays.
    @Test func mp4IsMuxedFromTheSamePacketsWithItsIndexFirst() throws {
        let c = try Self.compose(codec: .h264, segmentSeconds: 2, mp4: true)
        defer { c.cleanup() }
        let url = c.root.appendingPathComponent("out/composition.mp4")
        let data = try Data(contentsOf: url)
        var boxes: [String] = []
        var offset = 0
        while offset + 8 <= data.count {
            let size = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            boxes.append(String(decoding: data[offset + 4..<offset + 8], as: UTF8.self))
            guard size >= 8 else { break }
            offset += size
        }
        #expect(boxes.first == "ftyp")
        let moov = try #require(boxes.firstIndex(of: "moov"), "\(boxes)")
        let mdat = try #require(boxes.firstIndex(of: "mdat"), "\(boxes)")
        #expect(moov < mdat, "faststart: \(boxes)")

        let file = try ComposedOutput(hls: c.output.directory, media: url)
        #expect(file.frames.count == c.output.frames.count)
        #expect(file.frames.count == 8 * 30)
        #expect(abs(file.audio.count - c.output.audio.count) <= 1024, "\(file.audio.count) vs \(c.output.audio.count)")
        #expect(abs((file.firstAudio - file.firstVideo) - (c.output.firstAudio - c.output.firstVideo)) < 0.034)
        var fromFile = c
        fromFile.output = file
        for t in [1.0, 3.0, 5.5] {
            try Self.checkTiles(fromFile, at: t)
            try Self.checkTiles(c, at: t)
        }
        #expect(c.output.segments.map(\.duration) == [2, 2, 2, 2])

        // The stage's events: Ana on stage from 0, Ben from 2 s (his pin), in the playlist as
        // EXT-X-DATERANGE at the session's dates, and as the MP4's chapters.
        #expect(StageEvent.of(StageTimeline(capture: c.capture, pauseGraceMs: StageTimeline.defaultPauseGraceMs)).map { "\($0.atMs) \($0.kind.rawValue) \($0.participantId)" }
                == ["0 joined-stage p-ana", "2000 joined-stage p-ben"])
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let benAt = formatter.string(from: c.capture.startedAt.addingTimeInterval(2))
        let tags = c.output.playlist.split(separator: "\n").filter { $0.hasPrefix("#EXT-X-DATERANGE:") }
        #expect(tags.count == 2, "\(c.output.playlist)")
        #expect(tags.last == #"#EXT-X-DATERANGE:ID="stage-2",CLASS="dev.stagemix.stage",START-DATE="\#(benAt)",X-EVENT="joined-stage",X-PARTICIPANT="p-ben",X-NAME="Ben""#,
                "\(tags)")
        let lines = c.output.playlist.split(separator: "\n").map(String.init)
        let benTag = try #require(lines.firstIndex { $0.contains("p-ben") })
        #expect(lines[(benTag + 1)...].first { !$0.hasPrefix("#EXT-X-DATERANGE") }?.hasPrefix("#EXTINF") == true, "placed before a segment")
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_chapters", "-of", "json", url.path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let json = pipe.fileHandleForReading.readDataToEndOfFile()
        probe.waitUntilExit()
        let chapters = try #require((try JSONSerialization.jsonObject(with: json) as? [String: Any])?["chapters"] as? [[String: Any]])
        #expect(chapters.compactMap { ($0["tags"] as? [String: String])?["title"] } == ["Ana joined the stage", "Ben joined the stage"])
        #expect(chapters.compactMap { $0["start_time"] as? String } == ["0.000000", "2.000000"])
        #expect(chapters.last?["end_time"] as? String == "8.000000")
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

    /// `--thumbnails 2` on the 8 s scenario: four thumbnails of the composite at their times, a WebVTT
    /// track naming them, and the poster from 3.5 s, the middle of the first longest stretch where
    /// both Ana and Ben show video (Ana's camera is muted 5.0-6.5 s).
    @Test func thumbnailsAndPosterShowTheCompositeAtTheirTimes() throws {
        let c = try Self.compose(codec: .vp8, thumbnails: 2)
        defer { c.cleanup() }
        let out = c.root.appendingPathComponent("out")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("thumbnails").path).sorted()
        #expect(names == ["00000.jpg", "00001.jpg", "00002.jpg", "00003.jpg"])
        let vtt = try String(contentsOf: out.appendingPathComponent("thumbnails.vtt"), encoding: .utf8)
        #expect(vtt.hasPrefix("WEBVTT\n"))
        #expect(vtt.contains("00:00:06.000 --> 00:00:08.000\nthumbnails/00003.jpg\n"), "\(vtt)")
        #expect(vtt.components(separatedBy: " --> ").count == 5)

        func check(_ picture: VideoFrame, scale: Double, at t: Double) throws {
            let interval = try #require(c.plan.interval(atMs: Int(t * 1000)))
            for tile in interval.tiles where tile.show == .video {
                let want = try #require(c.colors[tile.participantId])
                let x = Int(Double(tile.rect.x + tile.rect.width / 2) * scale)
                let y = Int(Double(tile.rect.y + tile.rect.height * 3 / 4) * scale)
                let got = try #require(picture.pixelRGB(x: x, y: y))
                #expect(got.isClose(to: want, tolerance: 30), "t=\(t) \(tile.participantId) at (\(x),\(y)): \(got), want \(want)")
            }
            #expect(interval.tiles.filter { $0.show == .video }.count >= 1)
        }
        for k in 0..<4 {
            let thumb = try Self.decodePicture(out.appendingPathComponent(String(format: "thumbnails/%05d.jpg", k)))
            #expect(thumb.width == 320 && thumb.height == 320 * c.plan.canvas.height / c.plan.canvas.width)
            try check(thumb, scale: 320 / Double(c.plan.canvas.width), at: Double(k * 2) + 0.01)
        }
        #expect(ThumbnailWriter.posterTimeMs(c.plan) == 3_500)
        let poster = try Self.decodePicture(out.appendingPathComponent("poster.jpg"))
        #expect(poster.width == c.plan.canvas.width)
        try check(poster, scale: 1, at: 3.5)
        #expect(c.plan.interval(atMs: 3_500)?.tiles.filter { $0.show == .video }.count == 2)
    }
}
