import ArgumentParser
import Foundation
import StageMixCapture
import StageMixCommandLine
import StageMixImport
import StageMixMedia
import StageMixOptions
import StageMixPublishing

extension StageMix {
    /// `stagemix import PLATFORM DIR --out CAPTURE`: another platform's recordings as a capture.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import another platform's per-track recordings as a capture (see docs/import.md).",
            subcommands: [Twilio.self, LiveKit.self, Janus.self, Agora.self, Daily.self, ZegoCloud.self, StreamVideo.self, HundredMs.self,
                          VideoSDK.self])
    }
}

/// Where an import goes and how its media gets there, shared by every platform.
struct ImportTarget: ParsableArguments {
    @Option(help: "The capture folder to write; written whole, never over a folder StageMix did not write.")
    var out: String

    @Flag(help: "Copy the media into the capture instead of hard-linking it where it lies (needed across file systems).")
    var copyMedia = false

    @Flag(help: "Replace an earlier capture StageMix wrote at --out.")
    var overwrite = false

    /// Writes `imported` as a capture at `--out`, staged and published whole, and prints its warnings.
    func write(_ imported: ImportedCapture) throws {
        for warning in imported.warnings { try? FileHandle.standardError.write(contentsOf: Data("warning: \(warning)\n".utf8)) }
        try publish { _ in imported }
    }

    /// The same for an import that makes its media (Janus's recordings converted): `build` writes them
    /// into the staging folder and returns the capture they make; its warnings are printed after.
    func write(making build: (URL) throws -> ImportedCapture) throws {
        let imported = try publish(build)
        for warning in imported.warnings { try? FileHandle.standardError.write(contentsOf: Data("warning: \(warning)\n".utf8)) }
    }

    @discardableResult
    private func publish(_ build: (URL) throws -> ImportedCapture) throws -> ImportedCapture {
        let imported: ImportedCapture
        do {
            imported = try OutputDestination(parsing: out).publisher(overwrite: overwrite).publishStaged { staging in
                let imported = try build(staging)
                try imported.write(into: staging, copyMedia: copyMedia)
                return imported
            }
        } catch let error as OutputRefusal {
            throw BadInput(error)
        } catch let error as ImportError {
            throw BadInput(error)
        } catch let error as CaptureError {
            throw BadInput(error)
        }
        let manifest = imported.manifest
        print("imported \(imported.platform) \(manifest.sessionId) to \(out): \(manifest.participants.count) participants, "
              + "\(manifest.tracks.count) tracks, \(String(format: "%.1f", Double(manifest.events.last?.atMs ?? 0) / 1000)) s"
              + (imported.warnings.isEmpty ? "" : ", \(imported.warnings.count) warning\(imported.warnings.count == 1 ? "" : "s")"))
        return imported
    }
}

extension StageMix.Import {
    /// `stagemix import twilio DIR --out CAPTURE`.
    struct Twilio: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "A Twilio Video room: room.json, participants.json, recordings.json and the RT....mka/.mkv files.",
            discussion: """
                Every participant with a recording is on stage while in the room. Status callbacks saved as JSON \
                lines (callbacks.jsonl beside the files, or --callbacks) make track-disabled/-enabled mutes. \
                Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding room.json, participants.json, recordings.json and the media.")
        var directory: String

        @OptionGroup var target: ImportTarget

        @Option(help: "Comma-separated track-name patterns of screen shares (`*` for any characters).")
        var screenShareNames = "screen*"

        @Option(help: "The room's status callbacks, one JSON object per line [DIR/callbacks.jsonl if there].")
        var callbacks: String?

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.quiet)
                let room = TwilioRoom(directory: URL(fileURLWithPath: directory),
                                      screenShareNames: screenShareNames.split(separator: ",").map { NamePattern(String($0)) },
                                      callbacks: callbacks.map { URL(fileURLWithPath: $0) })
                let imported: ImportedCapture
                do { imported = try room.read() } catch { throw BadInput(error) }
                try target.write(imported)
            }
        }
    }
}

extension StageMix.Import {
    /// `stagemix import livekit DIR --out CAPTURE`.
    struct LiveKit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "livekit",
            abstract: "LiveKit Track Egress files with their manifests or EgressInfo JSON, and optionally the webhook log.",
            discussion: """
                Each file is placed by its own started_at (nanoseconds); joins and leaves come from the webhooks \
                (webhooks.jsonl beside the files, or --webhooks), refined by the files' times. Every participant \
                with a recorded track is on stage while in the room. Exit codes: 0 done, 64 usage error, 65 bad input.
                """)

        @Argument(help: "The folder holding the egress files and their JSON.")
        var directory: String

        @OptionGroup var target: ImportTarget

        @Option(help: "The room's webhook events, one protojson object per line [DIR/webhooks.jsonl if there].")
        var webhooks: String?

        func run() throws {
            try runReportingErrors {
                MediaLog.setLevel(.quiet)
                let export = LiveKitExport(directory: URL(fileURLWithPath: directory), webhooks: webhooks.map { URL(fileURLWithPath: $0) })
                let imported: ImportedCapture
                do { imported = try export.read() } catch { throw BadInput(error) }
                try target.write(imported)
            }
        }
    }
}
