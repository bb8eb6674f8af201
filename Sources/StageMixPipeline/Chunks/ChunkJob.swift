public import Foundation
public import StageMixPlan
public import StageMixOptions

/// What one chunk of a chunked composition needs to encode its frames, written once by the run
/// that shares the work out and read by the process that does it (`stagemix compose-chunk JOB`).
/// The plan travels whole, speaker turns included: a chunk never plans again (docs/chunks.md).
public struct ChunkJob: Sendable, Codable {
    /// The chunk's place in the run: 0, 1, ...
    public var index: Int
    /// The capture as its sources find it: a folder's path or an `s3://` URL.
    public var capture: String
    public var options: ComposeOptions
    public var plan: CompositionPlan
    /// Output frames `[from, to)`; `from` is a keyframe of every rendition.
    public var from: Int
    public var to: Int
    /// Where the chunk writes its video files and its result: the run's work folder in the staging folder.
    public var work: String
    /// The staging folder, where the chunk writes its thumbnails (and the poster, if it falls in it).
    public var pictures: String?

    public var frames: Range<Int> { from..<to }

    /// The chunk's video of rendition `rendition` (0 is the largest), in the work folder.
    public func videoFile(rendition: Int) -> URL {
        URL(fileURLWithPath: work).appendingPathComponent(String(format: "chunk-%05d-%d.nut", index, rendition))
    }

    public var resultFile: URL { Self.resultFile(index, in: URL(fileURLWithPath: work)) }

    /// Chunk `index`'s result in the folder it was written in.
    public static func resultFile(_ index: Int, in folder: URL) -> URL {
        folder.appendingPathComponent(String(format: "chunk-%05d.result.json", index))
    }

    public var jobFile: URL { Self.jobFile(index, in: URL(fileURLWithPath: work)) }

    /// Chunk `index`'s job in the folder it writes into.
    public static func jobFile(_ index: Int, in folder: URL) -> URL {
        folder.appendingPathComponent(String(format: "chunk-%05d.job.json", index))
    }

    /// Exact (dates as numbers), not for people: the run and its chunks are one version of StageMix.
    public func write(to url: URL) throws { try JSONEncoder().encode(self).write(to: url) }
    public static func read(from url: URL) throws -> ChunkJob { try JSONDecoder().decode(ChunkJob.self, from: Data(contentsOf: url)) }
}
