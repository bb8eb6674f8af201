import StageMixTestSupport
import StageMixJSON
import Foundation
import Testing

/// Validates manifests against `docs/capture.schema.json` with Python's `jsonschema`
/// (Draft 2020-12), so the published schema and the samples cannot drift apart unnoticed.
@Suite struct CaptureSchemaTests {
    /// The repository root, three levels above this file (Tests/StageMixCaptureTests/<file>).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let schema = repository.appendingPathComponent("docs/capture.schema.json")

    static let validatorScript = """
        import json, sys
        from jsonschema import Draft202012Validator
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        for path in sys.argv[2:]:
            errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.absolute_path))
            print(("VALID " if not errors else "INVALID ") + path
                  + "".join(" | " + e.json_path + ": " + e.message for e in errors))
        """

    /// One line per file: `VALID <path>` or `INVALID <path> | <json path>: <message> ...`.
    static func validate(_ files: [URL]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", validatorScript, schema.path] + files.map(\.path)
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "python3/jsonschema failed: \(errorText)")
        return text.split(separator: "\n").map(String.init)
    }

    static func write(_ fixture: CaptureFixture, in scratch: ScratchDirectory, as name: String) -> URL {
        let url = scratch.url.appendingPathComponent(name)
        try! fixture.data.write(to: url)
        return url
    }

    @Test func theInlineExampleIsValidAndBrokenOnesAreNot() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        var badFormat = CaptureFixture.valid
        badFormat.document["format"] = "stagemix.capture/2"
        var audioWithLayers = CaptureFixture.valid
        audioWithLayers.tracks[1]["source"] = "camera"
        var roleChangeWithoutForced = CaptureFixture.valid
        roleChangeWithoutForced.events[7]["forced"] = nil
        var localTime = CaptureFixture.valid
        localTime.document["startedAt"] = "2026-11-20T19:00:00+01:00"
        var twoEnds = CaptureFixture.valid
        twoEnds.events.insert(["atMs": 19000, "type": "session.ended"], at: 20)

        let lines = try Self.validate([
            Self.write(.valid, in: scratch, as: "valid.json"),
            Self.write(badFormat, in: scratch, as: "bad-format.json"),
            Self.write(audioWithLayers, in: scratch, as: "audio-camera.json"),
            Self.write(roleChangeWithoutForced, in: scratch, as: "no-forced.json"),
            Self.write(localTime, in: scratch, as: "local-time.json"),
            Self.write(twoEnds, in: scratch, as: "two-ends.json"),
        ])
        try #require(lines.count == 6)
        #expect(lines[0].hasPrefix("VALID "), "\(lines[0])")
        #expect(lines[1].hasPrefix("INVALID ") && lines[1].contains("$.format"), "\(lines[1])")
        #expect(lines[2].hasPrefix("INVALID ") && lines[2].contains("$.tracks[1].source"), "\(lines[2])")
        #expect(lines[3].hasPrefix("INVALID ") && lines[3].contains("$.events[7]"), "\(lines[3])")
        #expect(lines[4].hasPrefix("INVALID ") && lines[4].contains("$.startedAt"), "\(lines[4])")
        #expect(lines[5].hasPrefix("INVALID ") && lines[5].contains("$.events"), "\(lines[5])")
    }

    /// A capture in progress: `recording` and no `session.ended` is valid; either without the other is not.
    @Test func aCaptureInProgressMatchesTheSchemaAndHalfOfOneDoesNot() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let inProgress = CaptureInProgressTests.inProgress(completeToMs: 4_000)
        var both = CaptureFixture.valid
        both.document["recording"] = ["completeToMs": 4_000]
        var badCompleteTo = inProgress
        badCompleteTo.document["recording"] = ["completeToMs": "later"]
        var neither = inProgress
        neither.document["recording"] = nil
        let lines = try Self.validate([Self.write(inProgress, in: scratch, as: "in-progress.json"), Self.write(both, in: scratch, as: "both.json"),
                                       Self.write(badCompleteTo, in: scratch, as: "bad.json"), Self.write(neither, in: scratch, as: "neither.json")])
        try #require(lines.count == 4)
        #expect(lines[0].hasPrefix("VALID "), "\(lines[0])")
        #expect(lines[1].hasPrefix("INVALID ") && lines[1].contains("$.events"), "\(lines[1])")
        #expect(lines[2].hasPrefix("INVALID ") && lines[2].contains("$.recording.completeToMs"), "\(lines[2])")
        #expect(lines[3].hasPrefix("INVALID ") && lines[3].contains("$.events"), "\(lines[3])")
    }

    @Test func everySampleManifestMatchesTheSchema() throws {
        let samples = Self.repository.appendingPathComponent("Samples")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples.path)) ?? []
        let manifests = names.sorted()
            .map { samples.appendingPathComponent($0).appendingPathComponent("session.json") }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        guard !manifests.isEmpty else {
            withKnownIssue("no Samples/*/session.json yet; only the inline example was validated") {
                Issue.record("no sample captures under \(samples.path)")
            }
            return
        }
        for line in try Self.validate(manifests) {
            #expect(line.hasPrefix("VALID "), "\(line)")
        }
    }
}
