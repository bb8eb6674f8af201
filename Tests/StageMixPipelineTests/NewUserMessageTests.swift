import Foundation
import Testing
import StageMixTestSupport

/// What a new user trips over first (issue 26): each message says what is wrong and what was meant,
/// with the exit code README gives (64 an option's value, 65 bad input).
@Suite("Messages a new user meets", .serialized)
struct NewUserMessageTests {
    static let panel = Repository.root.appendingPathComponent("Samples/panel").path

    static func run(_ arguments: [String]) throws -> CommandLineTests.Run { try CommandLineTests.run(arguments) }

    @Test func aMistypedCaptureFolderIsNamedAsAFolderThatDoesNotExist() throws {
        let missing = Repository.root.appendingPathComponent("Samples/panle").path
        let result = try Self.run(["plan", missing])
        #expect(result.status == 65)
        #expect(result.stderr.contains("\(missing): expected a capture folder holding session.json, found no such folder"), "\(result.stderr)")
    }

    @Test func aMistypedLayoutIsAnOptionValueWithTheLikelyName() throws {
        let result = try Self.run(["plan", Self.panel, "--layout", "gird"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--layout") && result.stderr.contains("did you mean \"grid\"?"), "\(result.stderr)")
    }

    @Test func aFractionalFrameRateSaysWhy() throws {
        let result = try Self.run(["plan", Self.panel, "--fps", "29.97"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("fractional") && result.stderr.contains("whole frames per second"), "\(result.stderr)")
    }

    @Test func anEditNamingSomeoneByNameHintsTheirId() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(#"{"exclude": [{"participant": "Omar"}]}"#, to: "edits.json")
        let result = try Self.run(["plan", Self.panel, "--edits", scratch.url.appendingPathComponent("edits.json").path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("$.exclude[0].participant") && result.stderr.contains("did you mean \"p-omar\""), "\(result.stderr)")
    }

    @Test func previewTakesSessionTimeAndSaysWhereACutRemovedIt() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write(#"{"cut": [{"from": 10, "to": 15}]}"#, to: "edits.json")
        let edits = scratch.url.appendingPathComponent("edits.json").path
        // The panel lasts 30 s; with 10-15 s cut the output lasts 25 s, but 26 s of the session is still there.
        let late = scratch.url.appendingPathComponent("late.png").path
        let kept = try Self.run(["preview", Self.panel, "--edits", edits, "--at", "26", "-o", late])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(FileManager.default.fileExists(atPath: late))
        let removed = try Self.run(["preview", Self.panel, "--edits", edits, "--at", "12", "-o", scratch.url.appendingPathComponent("cut.png").path])
        #expect(removed.status == 64)
        #expect(removed.stderr.contains("removed by the edits") && removed.stderr.contains("0.000-10.000 s, 15.000-30.000 s"), "\(removed.stderr)")
        let outside = try Self.run(["preview", Self.panel, "--at", "31", "-o", scratch.url.appendingPathComponent("x.png").path])
        #expect(outside.status == 64 && outside.stderr.contains("--at 31.000 s is at or past the end of the session, which lasts 30.000 s"),
                "\(outside.stderr)")
        let end = try Self.run(["preview", Self.panel, "--at", "30", "-o", scratch.url.appendingPathComponent("y.png").path])
        #expect(end.status == 64 && end.stderr.contains("which lasts 30.000 s"), "\(end.stderr)")
    }

    @Test func previewRefusesANegativeTimeAndWritesWhatTheNameSays() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        let negative = try Self.run(["preview", Self.panel, "--at", "-1", "-o", scratch.url.appendingPathComponent("x.png").path])
        #expect(negative.status == 64)
        #expect(negative.stderr.contains("--at must be a session time") && !negative.stderr.contains("Missing value"), "\(negative.stderr)")
        let jpeg = scratch.url.appendingPathComponent("frame.jpg")
        #expect(try Self.run(["preview", Self.panel, "--at", "2", "-o", jpeg.path]).status == 0)
        #expect(try Data(contentsOf: jpeg).prefix(3) == Data([0xFF, 0xD8, 0xFF]), "a JPEG, not PNG bytes in a .jpg")
        let png = scratch.url.appendingPathComponent("frame.png")
        #expect(try Self.run(["preview", Self.panel, "--at", "2", "-o", png.path]).status == 0)
        #expect(try Data(contentsOf: png).prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
        let gif = try Self.run(["preview", Self.panel, "--at", "2", "-o", scratch.url.appendingPathComponent("frame.gif").path])
        #expect(gif.status == 64 && gif.stderr.contains(".png") && gif.stderr.contains(".jpg"), "\(gif.stderr)")
    }

    @Test func aTokenWhoseSecretFileIsMissingSaysSoInOneLine() throws {
        let result = try Self.run(["token", "--key", "demo", "--secret-file", "/nonexistent/demo.secret", "--grant", "read"])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("--secret-file /nonexistent/demo.secret: no such file"), "\(result.stderr)")
        #expect(!result.stderr.contains("USAGE") && !result.stderr.contains("SUBCOMMANDS"), "\(result.stderr)")
    }
}
