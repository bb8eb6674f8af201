public import Foundation
public import StageMixPlan
public import StageMixOptions
import StageMixTime

/// A chunked composition on the queue, as its plan attempt leaves it in the composition's work
/// folder (`run.json`) for the workers that encode its chunks and the one that joins them: the plan,
/// made once (with the speaker turns a speaker layout found), and the chunks' frame ranges. Each
/// chunk's files go to a folder of its own in the work folder, `chunk-00003/`, put in place whole
/// by the worker once the chunk is done (docs/chunks.md, "On the queue").
public struct ChunkRun: Sendable, Codable {
    public var capture: String
    public var options: ComposeOptions
    public var plan: CompositionPlan
    /// The speaker pass's turns, for the join to plan with again without listening again; nil when the layout does not follow the speaker.
    public var speakers: SpeakerTimeline?
    /// Output frames `[from, to)` of each chunk, in order.
    public var ranges: [[Int]]
    /// Whether the session's audio is a job of its own (its files in `audio/`), which the join remuxes;
    /// nil in the `run.json` of a version before it, whose join mixes the audio itself.
    public var audioApart: Bool?

    public init(capture: String, options: ComposeOptions, plan: CompositionPlan, speakers: SpeakerTimeline?, ranges: [Range<Int>]) {
        self.capture = capture
        self.options = options
        self.plan = plan
        self.speakers = speakers
        self.ranges = ranges.map { [$0.lowerBound, $0.upperBound] }
        audioApart = !ranges.isEmpty
    }

    public static let fileName = "run.json"

    /// The chunks of `plan` composed with `options`: what ``ChunkedComposition`` cuts a run into.
    public static func ranges(plan: CompositionPlan, options: ComposeOptions) -> [Range<Int>] {
        guard let seconds = options.chunkSeconds, !plan.intervals.isEmpty else { return [] }
        let frameCount = MediaTime.frameCount(ms: plan.durationMs, fps: plan.fps)
        return ChunkedComposition.ranges(frameCount: frameCount, plan: plan, settings: ComposeSettings(options), chunkSeconds: seconds)
    }

    /// Where chunk `index`'s files are once it is done.
    public static func chunkFolder(_ index: Int, in work: URL) -> URL {
        work.appendingPathComponent(ComposeChild.chunkFolderName(index))
    }

    /// Where the session's audio files are once its job is done.
    public static func audioFolder(in work: URL) -> URL {
        work.appendingPathComponent(ComposeChild.audioFolderName)
    }

    /// The session's audio job, writing its files into `folder`.
    public func audioJob(writingInto folder: URL) throws -> SessionAudioJob {
        guard audioApart == true else { throw ChunkRunError("run.json has no audio job: its join mixes the audio") }
        return SessionAudioJob(capture: capture, options: options, plan: plan, work: folder.path)
    }

    /// Chunk `index`'s job, writing its files into `folder`.
    public func job(_ index: Int, writingInto folder: URL) throws -> ChunkJob {
        guard ranges.indices.contains(index), ranges[index].count == 2, ranges[index][0] < ranges[index][1] else {
            throw ChunkRunError("run.json has no chunk \(index) (it has \(ranges.count))")
        }
        return ChunkJob(index: index, capture: capture, options: options, plan: plan, from: ranges[index][0], to: ranges[index][1],
                        work: folder.path, pictures: folder.path)
    }

    public func write(in work: URL) throws {
        try JSONEncoder().encode(self).write(to: work.appendingPathComponent(Self.fileName), options: .atomic)
    }

    public static func read(in work: URL) throws -> ChunkRun {
        let url = work.appendingPathComponent(fileName)
        do {
            return try JSONDecoder().decode(ChunkRun.self, from: Data(contentsOf: url))
        } catch {
            throw ChunkRunError("cannot read \(url.path): \(error)")
        }
    }
}

/// A chunked composition's work folder is not as its plan attempt left it.
public struct ChunkRunError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
