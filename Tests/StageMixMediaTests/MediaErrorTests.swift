import Foundation
import Testing
import StageMixMedia
import StageMixTestSupport

@Suite struct MediaErrorTests {
    @Test func openingMissingFileNamesThePath() throws {
        let scratch = ScratchDirectory("media")
        defer { scratch.remove() }
        let path = scratch.file("missing.webm").path
        do {
            _ = try Demuxer(path: path)
            Issue.record("opening a missing file succeeded")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message.contains(path))
            #expect(error.message.contains("No such file"))
        }
    }

    @Test func garbageFileIsNotOpened() throws {
        let scratch = ScratchDirectory("media")
        defer { scratch.remove() }
        let url = scratch.file("garbage.webm")
        try Data(repeating: 0x5a, count: 64).write(to: url)
        #expect(throws: MediaError.self) { try Demuxer(url: url) }
    }
}
