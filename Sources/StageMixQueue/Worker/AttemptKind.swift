public import Foundation
import StageMixPublishing

/// What an attempt runs, by its job: a composition whole, or one phase of a chunked composition
/// (its plan, one chunk, its join), each of which reads and writes the composition's work folder.
enum AttemptKind: Sendable {
    case whole
    case plan(work: URL)
    case chunk(work: URL, index: Int)
    case join(work: URL)

    init(_ job: Job) throws {
        if let parent = job.parentID {
            guard let index = job.chunk else { throw QueueError(.corruptRow, "chunk job \(job.id) has no chunk number") }
            self = .chunk(work: try Self.workFolder(of: job.spec, compositionID: parent), index: index)
            return
        }
        switch job.phase {
        case nil: self = .whole
        case .plan?: self = .plan(work: try Self.workFolder(of: job.spec, compositionID: job.id))
        case .join?: self = .join(work: try Self.workFolder(of: job.spec, compositionID: job.id))
        }
    }

    var work: URL? {
        switch self {
        case .whole: nil
        case .plan(let work), .chunk(let work, _), .join(let work): work
        }
    }

    /// Arguments after the job's own `compose` arguments.
    var arguments: [String] {
        switch self {
        case .whole, .chunk: []
        case .plan(let work): ["--chunk-phase", "plan", "--chunk-work", work.path]
        case .join(let work): ["--chunk-phase", "join", "--chunk-work", work.path]
        }
    }

    /// The composition's progress when this attempt's child says `percent`: the plan is its first
    /// 2 %, the join (which moves as the chunks land) the rest.
    func overall(_ percent: Double) -> Double {
        switch self {
        case .whole, .chunk: percent
        case .plan: Job.plannedPercent * percent / 100
        case .join: Job.plannedPercent + (100 - Job.plannedPercent) * percent / 100
        }
    }

    /// A chunked composition's work folder: hidden, beside its output folder, named for the composition, so
    /// that every worker that sees the output's file system sees it (docs/chunks.md, "On the queue").
    static func workFolder(of spec: JobSpec, compositionID: String) throws -> URL {
        guard let folder = try spec.destination.folder else {
            throw ChunkWorkRefusal(out: spec.out)
        }
        return folder.deletingLastPathComponent().appendingPathComponent(".\(folder.lastPathComponent).stagemix-chunks-\(compositionID)")
    }
}

/// A chunked composition whose output is not a folder: its chunks have no work folder the workers share.
public struct ChunkWorkRefusal: Error, CustomStringConvertible, Sendable {
    public var out: String
    public init(out: String) { self.out = out }
    public var description: String {
        "\(out): chunks on the queue share their work in a folder beside the output, so the output must be a folder (a bucket output is composed whole, or chunked on one machine with compose --chunk-seconds)"
    }
}

extension Job {
    /// A chunked composition's work folder (for its chunks too), where its output is a folder; nil otherwise.
    public var chunkWorkFolder: URL? {
        guard phase != nil || parentID != nil else { return nil }
        return try? AttemptKind.workFolder(of: spec, compositionID: parentID ?? id)
    }
}
