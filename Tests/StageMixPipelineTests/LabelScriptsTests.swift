import Foundation
import Testing
import StageMixCapture
import StageMixPlan
import StageMixLayout
import StageMixMedia
@testable import StageMixPipeline
import StageMixSynth
import StageMixTestSupport

/// Names in scripts that need shaping: read back by tesseract's Arabic and Hindi models from the
/// composed frames; a mixed-direction name keeps its word order; a name cut short loses whole
/// grapheme clusters only.
@Suite("Labels in every script", .serialized)
struct LabelScriptsTests {
    static let arabic = "محمد علي", hindi = "अनन्या शर्मा"

    /// `names` (keyed by a short id: participant `p-<key>`) on stage together in `grid`, composed; the plan,
    /// the output folder and a frame at 1 s.
    static func composed(_ names: [(key: String, name: String)], in root: URL) throws -> (PlanDocument, URL, URL) {
        let tracks = { (k: String) in [ScenarioTrack(id: "TR_\(k)_cam", source: .camera), ScenarioTrack(id: "TR_\(k)_mic", source: .microphone)] }
        let people = names.enumerated().map { index, entry in
            ScenarioParticipant.palette(index, id: "p-\(entry.key)", name: entry.name, tracks: tracks(entry.key))
        }
        var events: [ManifestEvent] = []
        for (index, person) in people.enumerated() { events += [.joined(0, person.id, role: index == 0 ? "host" : "speaker"), .pinned(0, person.id)] }
        events += names.flatMap { entry in [ManifestEvent.published(0, "TR_\(entry.key)_cam"), .published(0, "TR_\(entry.key)_mic")] }
        let scenario = Scenario(sessionId: "scripts", durationMs: 2_000, roles: CaptureManifest.Role.stageRoles, participants: people, events: events)
        let captureDir = root.appendingPathComponent("capture")
        _ = try CaptureSynthesizer(codec: .vp8).synthesize(scenario, to: captureDir)
        let capture = try CaptureReader.read(directory: captureDir)
        let doc = try PlanDocument(capture: capture, layout: try Layout.resolve("grid"))
        let out = root.appendingPathComponent("out")
        _ = try ComposeRun(capture: capture, document: doc, settings: ComposeSettings(segmentSeconds: 2, preset: "ultrafast")).run(out: out)
        let frame = root.appendingPathComponent("frame.png")
        try FFmpegTool.run(["-i", out.appendingPathComponent("hls/index.m3u8").path, "-ss", "1", "-frames:v", "1", frame.path])
        return (doc, out, frame)
    }

    @Test func arabicAndDevanagariNamesReadBackFromTheVideo() throws {
        MediaLog.setLevel(.error)
        let scratch = ScratchDirectory("scripts")
        defer { scratch.remove() }
        let root = scratch.file("scripts")
        let (doc, _, frame) = try Self.composed([("ar", Self.arabic), ("hi", Self.hindi)], in: root)

        let painter = LabelPainter(typesetter: NameTypesetter())
        for tile in try #require(doc.plan.interval(atMs: 1_000)?.tiles) {
            let label = try #require(tile.label)
            let placed = try #require(painter.placement(of: label, in: tile.rect))
            #expect(placed.text == tile.name)
            let language = tile.participantId == "p-ar" ? "ara" : "hin"
            let read = try LabelOCRTests.ocr(frame, LabelOCRTests.inside(placed.plate, by: 2), language: language, in: root)
            #expect(read == tile.name, "\(language): read \"\(read)\", drawn \"\(tile.name)\"")
        }
    }

    /// Hebrew, Bengali, Tamil, Thai and Chinese too, each read back by its own tesseract model.
    @Test func namesInFiveMoreScriptsReadBackFromTheVideo() throws {
        MediaLog.setLevel(.error)
        let scratch = ScratchDirectory("scripts")
        defer { scratch.remove() }
        let root = scratch.file("scripts")
        let names: [(key: String, name: String, language: String)] = [
            ("he", "דוד לוי", "heb"), ("bn", "অমিত রায়", "ben"), ("ta", "அருண் குமார்", "tam"), ("th", "สมชาย", "tha"), ("zh", "王小明", "chi_sim"),
        ]
        let (doc, _, frame) = try Self.composed(names.map { ($0.key, $0.name) }, in: root)
        let painter = LabelPainter(typesetter: NameTypesetter())
        for tile in try #require(doc.plan.interval(atMs: 1_000)?.tiles) {
            let entry = try #require(names.first { "p-\($0.key)" == tile.participantId })
            let label = try #require(tile.label)
            let placed = try #require(painter.placement(of: label, in: tile.rect))
            #expect(placed.text == entry.name)
            let read = try LabelOCRTests.ocr(frame, LabelOCRTests.inside(placed.plate, by: 2), language: entry.language, in: root)
            // The letters are what count: tesseract's models put spaces and zero-width non-joiners where they like.
            func letters(_ text: String) -> String {
                String(String.UnicodeScalarView(text.unicodeScalars.filter { !$0.properties.isWhitespace && !$0.properties.isDefaultIgnorableCodePoint }))
            }
            #expect(letters(read) == letters(entry.name), "\(entry.language): read \"\(read)\", drawn \"\(entry.name)\"")
        }
    }

    /// A name in a script no installed font has (Ethiopic) is shown as the participant id, never as
    /// boxes or with letters left out, and report.json says so.
    @Test func aNameNoFontDrawsIsShownAsTheParticipantIdWithAWarning() throws {
        MediaLog.setLevel(.error)
        let scratch = ScratchDirectory("scripts")
        defer { scratch.remove() }
        let root = scratch.file("scripts")
        let (doc, out, frame) = try Self.composed([("abebe", "አበበ በቀለ")], in: root)
        let tile = try #require(doc.plan.interval(atMs: 1_000)?.tiles.first)
        var label = try #require(tile.label)
        label.text = tile.participantId
        let placed = try #require(LabelPainter(typesetter: NameTypesetter()).placement(of: label, in: tile.rect))
        let read = try LabelOCRTests.ocr(frame, LabelOCRTests.inside(placed.plate, by: 2), language: "eng", in: root)
        #expect(read == "p-abebe", "read \"\(read)\"")
        let report = try String(contentsOf: out.appendingPathComponent("report.json"), encoding: .utf8)
        #expect(report.contains("the name of p-abebe has characters no installed font draws"), "\(report.prefix(600))")
    }

    /// "Dr. محمد Ali": "Dr. " on the left, then the Arabic (right to left), then " Ali" on the right, as
    /// each piece alone draws it; the Arabic letters joined, so narrower than drawn one by one.
    @Test func aMixedDirectionNameKeepsItsWordOrderAndArabicJoins() throws {
        let rasteriser = try TextRasteriser()
        let size = 40
        let whole = try rasteriser.render("Dr. محمد Ali", pixelSize: size)
        let left = try rasteriser.render("Dr.", pixelSize: size), right = try rasteriser.render("Ali", pixelSize: size)
        func columns(_ mask: CoverageMask, _ range: Range<Int>) -> [[UInt8]] {
            range.map { x in (0..<mask.height).map { y in mask.coverage[y * mask.width + x] } }
        }
        func inked(_ mask: CoverageMask) -> Range<Int> {
            let ink = (0..<mask.width).filter { x in (0..<mask.height).contains { mask.coverage[$0 * mask.width + x] > 0 } }
            return (ink.first ?? 0)..<((ink.last ?? -1) + 1)
        }
        // The same glyphs at the same places: the line boxes agree, so columns compare whole.
        #expect(whole.height == left.height && whole.height == right.height)
        let leftInk = inked(left), rightInk = inked(right)
        #expect(columns(whole, leftInk) == columns(left, leftInk), "\"Dr.\" starts the line")
        // "Ali" ends it: its glyphs start at a fraction of a pixel that differs from alone, so compare
        // within a pixel either way, by how much ink differs.
        let wholeInk = inked(whole)
        let alone = columns(right, rightInk).flatMap { $0 }.map(Int.init)
        let difference = (-1...1).map { shift -> Double in
            let end = wholeInk.upperBound + shift
            guard end - rightInk.count >= 0, end <= whole.width else { return 1 }
            let there = columns(whole, (end - rightInk.count)..<end).flatMap { $0 }.map(Int.init)
            return Double(zip(there, alone).map { abs($0 - $1) }.reduce(0, +)) / Double(max(1, alone.reduce(0, +)))
        }.min() ?? 1
        #expect(difference < 0.3, "\"Ali\" ends the line: ink differs by \(difference)")
        // And the Arabic lies between: ink past "Dr." that is neither.
        #expect(wholeInk.count > leftInk.count + rightInk.count + size)
        let joined = try rasteriser.width(of: "محمد", pixelSize: size)
        let isolated = try ["م", "ح", "م", "د"].map { try rasteriser.width(of: $0, pixelSize: size) }.reduce(0, +)
        #expect(joined < isolated, "joined \(joined) px, isolated letters \(isolated) px")
    }

    /// A name too long for its tile is cut before a whole grapheme cluster: "न्या" is never split from its virama.
    @Test func anEllipsisCutsWholeGraphemeClusters() throws {
        let typesetter = NameTypesetter()
        let name = "अनन्या शर्मा क्षत्रिय श्रीवास्तव"
        let full = typesetter.width(name, size: 32)
        for fraction in [3, 4, 5, 6] {
            let cut = try #require(typesetter.fit(name, size: 32, maxWidth: full * fraction / 8))
            #expect(cut.hasSuffix("…") && cut != name)
            let kept = cut.dropLast()
            #expect(name.hasPrefix(kept), "\(cut)")
            // Whole clusters: the kept part is a prefix of the name's Characters, never ending mid-cluster.
            #expect(Array(name).starts(with: Array(kept)), "\(cut)")
            #expect(kept.unicodeScalars.last.map { $0.properties.generalCategory != .nonspacingMark && $0.value != 0x094D } ?? false, "\(cut)")
        }
    }
}
