import Foundation
import StageMixJSON
import StageMixTestSupport
import Testing
import StageMixCapture

/// A capture made from values (as importers and the synthesizer make them) meets the same rules as
/// one read from a folder: there is no unchecked way to a `Capture`.
struct CaptureManifestTests {
    static func manifest(events: [ManifestEvent]) -> CaptureManifest {
        CaptureManifest(
            sessionId: "imported", startedAt: "2026-11-20T18:00:00.000Z",
            participants: [Participant(id: "p-ana", name: "Ana")],
            tracks: [
                .init(id: "ana-cam", participantId: "p-ana", kind: .video, source: .camera,
                      layers: [TrackLayer(quality: .high, width: 1280, height: 720, file: "media/ana-cam-high.webm")]),
                .init(id: "ana-mic", participantId: "p-ana", kind: .audio, source: .microphone, file: "media/ana-mic.ogg"),
            ],
            events: events)
    }

    static let valid: [ManifestEvent] = [
        .joined(0, "p-ana"), .pinned(0, "p-ana"), .published(0, "ana-cam"), .published(0, "ana-mic"),
        ManifestEvent(atMs: 5_000, type: "session.ended"),
    ]

    @Test func aValidManifestIsTheCaptureTheReaderMakesOfItsFile() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let manifest = Self.manifest(events: Self.valid)
        let made = try Capture(manifest: manifest, directory: scratch.url)
        try manifest.encoded().write(to: scratch.url.appendingPathComponent(CaptureReader.manifestName))
        let read = try CaptureFolder(scratch.url).capture()
        #expect(made == read)
        #expect(made.durationMs == 5_000)
        #expect(made.tracks.map(\.id) == ["ana-cam", "ana-mic"])
    }

    @Test func aBrokenEventSequenceIsRefusedAtItsPath() {
        // Publishing a track whose owner never joined breaks the contract, however the capture was made.
        let events: [ManifestEvent] = [.published(0, "ana-cam"), ManifestEvent(atMs: 5_000, type: "session.ended")]
        #expect {
            _ = try Capture(manifest: Self.manifest(events: events), directory: URL(fileURLWithPath: "/tmp"))
        } throws: { error in
            guard let error = error as? CaptureError else { return false }
            return error.problems.contains { $0.file == "session.json" && $0.path.hasPrefix("$.events[0]") }
        }
    }

    @Test func aMediaPathOutsideTheCaptureIsRefused() {
        var manifest = Self.manifest(events: Self.valid)
        manifest.tracks[1].file = "../elsewhere/mic.ogg"
        #expect(throws: CaptureError.self) { _ = try Capture(manifest: manifest, directory: URL(fileURLWithPath: "/tmp/capture")) }
    }
}
