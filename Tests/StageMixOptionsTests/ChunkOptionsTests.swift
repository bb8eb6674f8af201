import Testing
import StageMixOptions

/// `--chunk-seconds` and `--jobs`: a chunk is a whole number of segments, and the options travel
/// through a stored job as compose arguments.
@Suite("Chunk options")
struct ChunkOptionsTests {
    @Test func aChunkIsAWholeNumberOfSegments() throws {
        try ComposeOptions(chunkSeconds: 8).validate()
        try ComposeOptions(chunkSeconds: 4).validate()
        try ComposeOptions(segmentSeconds: 0.5, chunkSeconds: 1.5, jobs: 3).validate()
        try ComposeOptions(segmentSeconds: 2.5, chunkSeconds: 10).validate()
        for options in [ComposeOptions(chunkSeconds: 6), ComposeOptions(segmentSeconds: 4, chunkSeconds: 2),
                        ComposeOptions(segmentSeconds: 2, chunkSeconds: 5), ComposeOptions(chunkSeconds: 0.5)] {
            do {
                try options.validate()
                Issue.record("\(options) passed")
            } catch let error as OptionError {
                #expect(error.option == "--chunk-seconds")
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func jobsNeedChunksAndARange() {
        for (options, named) in [(ComposeOptions(jobs: 2), "--jobs"), (ComposeOptions(chunkSeconds: 8, jobs: 0), "--jobs"),
                                 (ComposeOptions(chunkSeconds: 8, jobs: 65), "--jobs")] {
            do {
                try options.validate()
                Issue.record("\(options) passed")
            } catch let error as OptionError {
                #expect(error.option == named)
            } catch {
                Issue.record("\(error)")
            }
        }
    }

    @Test func theOptionsAreComposeArguments() {
        let options = ComposeOptions(chunkSeconds: 12, jobs: 4)
        #expect(options.arguments == ["--chunk-seconds", "12", "--jobs", "4"])
    }
}
