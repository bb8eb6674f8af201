public import Foundation
import StageMixPublishing

/// What an attempt runs, by its job: a composition whole, or one phase of a chunked composition
/// (its plan, one chunk or its session's audio, its join), each of which reads and writes the composition's work folder.
enum AttemptKind: Sendable {
    case whole
    case plan(work: ChunkWork)
    /// One chunk of the video, or the session's audio.
    case chunk(work: ChunkWork, part: ChunkPart)
    case join(work: ChunkWork)
    /// A composition that follows its recording (`compose --follow`): its chunks go into the work, where
    /// an attempt after one whose worker died finds them and carries on (docs/follow.md).
    case follow(work: ChunkWork)

    init(_ job: Job) throws {
        if let parent = job.parentID {
            guard let index = job.chunk else { throw QueueError(.corruptRow, "chunk job \(job.id) has no chunk number") }
            self = .chunk(work: try ChunkWork(spec: job.spec, compositionID: parent), part: ChunkPart(chunk: index))
            return
        }
        switch job.phase {
        case nil: self = job.spec.options.follow == true ? .follow(work: try ChunkWork(spec: job.spec, compositionID: job.id)) : .whole
        case .plan?: self = .plan(work: try ChunkWork(spec: job.spec, compositionID: job.id))
        case .join?: self = .join(work: try ChunkWork(spec: job.spec, compositionID: job.id))
        }
    }

    var work: ChunkWork? {
        switch self {
        case .whole: nil
        case .plan(let work), .chunk(let work, _), .join(let work), .follow(let work): work
        }
    }

    /// Whether the attempt ends by publishing the composition's output (whole, its join, or followed).
    var publishes: Bool {
        switch self {
        case .whole, .join, .follow: true
        case .plan, .chunk: false
        }
    }

    /// Arguments after the job's own `compose` arguments.
    var arguments: [String] {
        switch self {
        case .whole, .chunk: []
        case .plan(let work): ["--chunk-phase", "plan", "--chunk-work", work.local.path, "--worker-pid", "\(getpid())"]
        case .join(let work): ["--chunk-phase", "join", "--chunk-work", work.local.path, "--worker-pid", "\(getpid())"]
        case .follow(let work): ["--follow-work", work.local.path, "--worker-pid", "\(getpid())"]
        }
    }

    /// The composition's progress when this attempt's child says `percent`: the plan is its first
    /// 2 %, the join (which moves as the chunks land) the rest.
    func overall(_ percent: Double) -> Double {
        switch self {
        case .whole, .chunk, .follow: percent
        case .plan: Job.plannedPercent * percent / 100
        case .join: Job.plannedPercent + (100 - Job.plannedPercent) * percent / 100
        }
    }
}

extension Job {
    /// A chunked composition's work (for its chunks too), or a followed one's; nil for a job composed
    /// whole, or when the work cannot be reached (no storage configured for a bucket).
    public var chunkWork: ChunkWork? {
        guard phase != nil || parentID != nil || spec.options.follow == true else { return nil }
        return try? ChunkWork(spec: spec, compositionID: parentID ?? id)
    }

    /// Removes a chunked composition's work once it has ended (for those who end it with no worker
    /// to see it: a cancel of a composition nothing of which runs).
    public func removeEndedChunkWork() {
        guard parentID == nil, state.isFinal, let work = chunkWork else { return }
        try? work.remove()
    }
}
