import StageMixTestSupport
import StageMixJSON
import Foundation
import Testing
@testable import StageMixCapture

@Suite struct CaptureMediaPathTests {
    @Test(arguments: ["../x", "/etc/passwd", "media/../../x", "..", "media/..", "./"])
    func pathsThatLeaveTheCaptureAreRejected(file: String) {
        var fixture = CaptureFixture.valid
        fixture.tracks[1]["file"] = file
        #expect(fixture.problems().map(\.path) == ["$.tracks[1].file"])
    }

    @Test(arguments: ["media/../media/maya-mic.ogg", "media//maya-mic.ogg", "./media/./maya-mic.ogg"])
    func pathsThatStayInsideAreAccepted(file: String) {
        var fixture = CaptureFixture.valid
        fixture.tracks[1]["file"] = file
        #expect(fixture.problems().isEmpty)
    }

    @Test func aSymlinkResolvingOutsideTheCaptureIsRejected() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        scratch.write("secret", to: "outside/secret.ogg")
        scratch.write("inside", to: "capture/media/real.ogg")
        let capture = scratch.url.appendingPathComponent("capture")
        try FileManager.default.createSymbolicLink(atPath: capture.appendingPathComponent("media/escape.ogg").path,
                                                   withDestinationPath: scratch.url.appendingPathComponent("outside/secret.ogg").path)
        try FileManager.default.createSymbolicLink(atPath: capture.appendingPathComponent("media/alias.ogg").path,
                                                   withDestinationPath: "real.ogg")
        try FileManager.default.createSymbolicLink(atPath: capture.appendingPathComponent("linkdir").path,
                                                   withDestinationPath: "../outside")

        var fixture = CaptureFixture.valid
        fixture.tracks[1]["file"] = "media/escape.ogg"
        fixture.tracks[3]["file"] = "linkdir/secret.ogg"
        let problems = fixture.problems(directory: capture)
        #expect(problems.map(\.path) == ["$.tracks[1].file", "$.tracks[3].file"])
        #expect(problems.first?.found.contains("symbolic link") == true)

        fixture.tracks[1]["file"] = "media/alias.ogg"
        fixture.tracks[3]["file"] = "media/real.ogg"
        #expect(fixture.problems(directory: capture).isEmpty, "a symlink inside the capture is fine")
    }

    @Test func missingMediaIsListedWithTrackAndLayerWithoutFailingTheRead() throws {
        let scratch = ScratchDirectory()
        defer { scratch.remove() }
        for file in ["media/maya-cam-low.webm", "media/maya-cam-high.webm", "media/omar-cam-low.webm", "media/omar-mic.ogg"] {
            scratch.write("media", to: file)
        }
        try FileManager.default.createDirectory(at: scratch.url.appendingPathComponent("media/maya-mic.ogg"), withIntermediateDirectories: true)
        let capture = try CaptureFixture.valid.parse(directory: scratch.url)
        let missing = CaptureReader.missingMedia(in: capture)
        #expect(missing.map(\.file) == ["media/maya-cam-medium.webm", "media/maya-mic.ogg"])
        #expect(missing.map(\.path) == ["$.tracks[0].layers[?(@.quality=='medium')].file", "$.tracks[1].file"])
        #expect(missing[0].expected.contains("TR_maya_cam") && missing[0].expected.contains("medium"))
        #expect(missing[0].found == "no file at media/maya-cam-medium.webm")
        #expect(missing[1].expected.contains("TR_maya_mic") && missing[1].found.contains("directory"))
    }
}
