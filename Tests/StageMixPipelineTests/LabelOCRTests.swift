import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth
import StageMixTestSupport

/// Composes a synthesized capture with the built-in layout's labels, decodes frames back with the
/// ffmpeg CLI and reads every label, and a placeholder's name, with tesseract.
@Suite("Labels read by OCR", .serialized)
struct LabelOCRTests {
    /// Three cameras, one of them an accented name, and one participant with no camera (the placeholder).
    static func scenario() -> Scenario {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let people = [
            ScenarioParticipant.palette(0, id: "p-jose", name: "José Núñez", tracks: tracks("jose")),
            ScenarioParticipant.palette(1, id: "p-maya", name: "Maya Lopez", tracks: tracks("maya")),
            ScenarioParticipant.palette(3, id: "p-kai", name: "Kai Becker", tracks: tracks("kai")),
            ScenarioParticipant.palette(2, id: "p-lena", name: "Lena Ivanova", tracks: tracks("lena")),
        ]
        var events: [ManifestEvent] = []
        for (index, person) in people.enumerated() {
            events += [.joined(0, person.id, role: index == 0 ? "host" : "speaker"), .pinned(0, person.id)]
        }
        events += ["jose", "maya", "kai", "lena"].flatMap { k in [ManifestEvent.published(0, "TR_\(k)_cam"), .published(0, "TR_\(k)_mic")] }
        events.append(.muted(0, "TR_lena_cam"))
        return Scenario(sessionId: "labels", durationMs: 2_000, roles: CaptureManifest.Role.stageRoles, participants: people, events: events)
    }

    /// What tesseract reads in `rect` of `frame` (a PNG) as one line of text: cropped, enlarged four
    /// times, made dark on light with a white border, as tesseract reads best. By default its Spanish
    /// model, since the English one has no "ú" or "ñ".
    static func ocr(_ frame: URL, _ rect: Rect, language: String = "spa", in directory: URL) throws -> String {
        let crop = directory.appendingPathComponent("crop-\(language)-\(rect.x)-\(rect.y).png")
        try FFmpegTool.run(["-i", frame.path, "-vf",
                            "crop=\(rect.width):\(rect.height):\(rect.x):\(rect.y),scale=iw*4:ih*4:flags=lanczos,format=gray,negate,pad=iw+80:ih+80:40:40:white",
                            crop.path])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tesseract", crop.path, "stdout", "--psm", "7", "-l", language]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// In a sans-serif font capital I and small l are the same bar: neither OCR nor a reader can
    /// tell "Ivanova" from "lvanova" by the glyph alone, so the two count as one letter.
    static func sameText(_ read: String, _ name: String) -> Bool {
        read.replacingOccurrences(of: "I", with: "l") == name.replacingOccurrences(of: "I", with: "l")
    }

    static func inside(_ r: Rect, by inset: Int) -> Rect {
        Rect(x: r.x + inset, y: r.y + inset, width: r.width - 2 * inset, height: r.height - 2 * inset)
    }

    @Test func everyLabelAndThePlaceholdersNameReadBack() throws {
        MediaLog.setLevel(.error)
        let scratch = ScratchDirectory("ocr")
        defer { scratch.remove() }
        let root = scratch.file("ocr")
        let captureDir = root.appendingPathComponent("capture")
        _ = try CaptureSynthesizer(codec: .vp8).synthesize(Self.scenario(), to: captureDir)
        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        _ = try ComposeRun(capture: capture, document: doc, settings: ComposeSettings(segmentSeconds: 2, preset: "ultrafast")).run(out: out)

        let frame = root.appendingPathComponent("frame.png")
        try FFmpegTool.run(["-i", out.appendingPathComponent("hls/index.m3u8").path, "-ss", "1", "-frames:v", "1", frame.path])
        let tiles = try #require(doc.plan.interval(atMs: 1_000)?.tiles)
        #expect(tiles.count == 4)
        let painter = LabelPainter(typesetter: NameTypesetter())
        for tile in tiles {
            let label = try #require(tile.label, "\(tile.name) has a label")
            let placed = try #require(painter.placement(of: label, in: tile.rect))
            #expect(placed.text == tile.name, "the whole name fits a 632-px tile")
            // Inside the plate: its edge against the picture would read as a stroke.
            let read = try Self.ocr(frame, Self.inside(placed.plate, by: 2), in: root)
            #expect(Self.sameText(read, tile.name), "label of \(tile.participantId): read \"\(read)\"")
        }
        let lena = try #require(tiles.first { $0.participantId == "p-lena" })
        #expect(lena.show == .placeholder)
        let typesetter = NameTypesetter()
        let card = try #require(PlaceholderCard.text(for: lena.name, in: lena.rect, typesetter: typesetter))
        #expect(card.text == "Lena Ivanova")
        let mask = try #require(try typesetter.mask(card.text, size: card.size))
        let box = Rect(x: lena.rect.x + (lena.rect.width - mask.width) / 2 - 8, y: lena.rect.y + lena.rect.height * 9 / 20 - mask.height / 2 - 8,
                       width: mask.width + 16, height: mask.height + 16)
        let read = try Self.ocr(frame, box, in: root)
        #expect(Self.sameText(read, "Lena Ivanova"), "placeholder: read \"\(read)\"")
    }

    /// A portrait camera alone in `grid` (`contain`): the label sits on the picture, and the bars
    /// beside it keep the region's background however many frames are painted over them.
    @Test func aContainedPicturesLabelSitsOnThePictureNotOnItsBars() throws {
        MediaLog.setLevel(.error)
        let scratch = ScratchDirectory("ocr")
        defer { scratch.remove() }
        let root = scratch.file("ocr")
        let camera = ScenarioTrack(id: "TR_ines_cam", source: .camera, layers: [ScenarioLayer(quality: .high, width: 360, height: 640)])
        let ines = ScenarioParticipant.palette(5, id: "p-ines", name: "Inés Ortega", tracks: [camera])
        let scenario = Scenario(sessionId: "portrait", durationMs: 2_000, roles: CaptureManifest.Role.stageRoles, participants: [ines],
                                events: [.joined(0, ines.id, role: "host"), .pinned(0, ines.id), .published(0, "TR_ines_cam")])
        let captureDir = root.appendingPathComponent("capture")
        _ = try CaptureSynthesizer(codec: .vp8).synthesize(scenario, to: captureDir)
        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        _ = try ComposeRun(capture: capture, document: doc, settings: ComposeSettings(segmentSeconds: 2, preset: "ultrafast")).run(out: out)
        let frame = root.appendingPathComponent("frame.png")
        try FFmpegTool.run(["-i", out.appendingPathComponent("hls/index.m3u8").path, "-ss", "1.8", "-frames:v", "1", frame.path])

        let tile = try #require(doc.plan.interval(atMs: 1_800)?.tiles.first)
        let picture = FitGeometry.fit(content: CanvasSize(width: 360, height: 640), into: tile.rect, mode: tile.fit).destination
        #expect(picture.width < tile.rect.width / 2, "a portrait picture with bars beside it")
        let label = try #require(tile.label)
        let placed = try #require(LabelPainter(typesetter: NameTypesetter()).placement(of: label, in: picture))
        #expect(placed.plate.x == picture.x + 8)
        #expect(Self.sameText(try Self.ocr(frame, Self.inside(placed.plate, by: 2), in: root), "Inés Ortega"))
        // The tile's own bottom-left corner, in the bar: still the grid's background after 54 frames.
        let decoded = try ComposedOutput(hls: out.appendingPathComponent("hls"))
        let late = try #require(decoded.frame(at: 1.8))
        let bar = try #require(late.pixelRGB(x: tile.rect.x + 16, y: tile.rect.y + tile.rect.height - 16))
        #expect(bar.isClose(to: try RGBColor(hex: "#101217"), tolerance: 10), "bar at the tile's corner: \(bar)")
    }
}
