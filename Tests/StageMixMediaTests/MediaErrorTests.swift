import Foundation
import Testing
import StageMixMedia

@Suite struct MediaErrorTests {
    @Test func openingMissingFileNamesThePath() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-missing-\(UUID()).webm").path
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-garbage-\(UUID()).webm")
        try Data(repeating: 0x5a, count: 64).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: MediaError.self) { try Demuxer(url: url) }
    }
}
