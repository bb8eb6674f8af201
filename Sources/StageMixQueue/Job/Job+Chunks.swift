/// The lifecycle of a chunked composition's job between its phases (``ChunkPhase``). Once planned the
/// job stays `running`: to a watcher the composition is being composed. Its join is held by a
/// worker's join slot while its chunks, jobs of their own, are encoded; between the plan and that
/// claim (or after a join worker died) nobody holds it, and no rescue or heartbeat applies to it.
extension Job {
    /// True when the join waits for a worker's join slot.
    public var isJoinReady: Bool {
        state == .running && leaseOwner == nil && phase == .join
    }

    /// Attempts as a person counts them, and as `maxAttempts` limits them: a chunked composition's plan,
    /// once it has made the chunks, and its join are one attempt. (`attempt` counts the two apart, as
    /// each holds a lease of its own and the count fences one from the other.)
    public var attemptsUsed: Int { phase == .join ? max(1, attempt - 1) : attempt }

    /// A job a worker's join slot takes (a join, ready or failed and backing off), not its compose slots.
    public var isJoin: Bool { phase == .join }

    /// The plan attempt has written the chunks' work: the job lets go of its lease, its join ready for a worker.
    public mutating func split(_ lease: JobLease, now: Double) -> FenceResult {
        guard holds(lease), phase == .plan, !cancelRequested else { return .fenced }
        phase = .join
        progress = max(progress, Self.plannedPercent)
        runAfter = createdAt
        leaseOwner = nil
        leaseExpiresAt = nil
        updatedAt = now
        return .applied
    }

    /// How far a chunked composition is once planned; its chunks and its join take it to 100.
    public static let plannedPercent = 2.0

    /// The chunk number of a chunked composition's session audio job (docs/chunks.md, "Audio"): below
    /// every chunk's, so that compose slots claim it first and it is done early.
    public static let sessionAudioChunk = -1

    /// A chunk job that makes the session's audio of its composition, not a chunk of its video.
    public var isSessionAudio: Bool { parentID != nil && chunk == Self.sessionAudioChunk }

    /// The session's audio of the chunked composition `parent` (loudness pass, mix, AAC), a job beside its
    /// chunks: claimed, retried, rescued and cancelled as a chunk is.
    public init(sessionAudioOf parent: Job, now: Double) {
        self.init(chunk: Self.sessionAudioChunk, of: parent, now: now)
        id = parent.id + "-audio"
        dedupeKey = parent.dedupeKey + "/audio"
    }

    /// Its chunks (and its session's audio) have moved: one dead fails the composition (fencing its join, whose worker stops it);
    /// while no join holds it, its progress is its chunks', never going back.
    public mutating func settle(chunks: [Job], now: Double) {
        // A join backing off after a failure is still the composition's: a chunk dead meanwhile fails it.
        guard state == .running || state == .failed, phase == .join else { return }
        // The session's audio is one of `chunks` when it is a job of its own: it fails the composition as a chunk does.
        let video = chunks.filter { !$0.isSessionAudio }
        if let dead = chunks.first(where: { $0.state == .dead }) {
            state = .dead
            let what = dead.isSessionAudio ? "the session's audio" : "chunk \(dead.chunk ?? 0) of \(video.count)"
            lastError = "\(what) failed for good: \(dead.lastError ?? "no error recorded")"
            leaseOwner = nil
            leaseExpiresAt = nil
            updatedAt = now
            return
        }
        guard state == .running, leaseOwner == nil, !video.isEmpty else { return }
        let done = video.reduce(0.0) { $0 + ($1.state == .succeeded ? 100 : min(100, max(0, $1.progress))) }
        let percent = Self.plannedPercent + (99 - Self.plannedPercent) * done / (100 * Double(video.count))
        if percent > progress + 0.05 {
            progress = percent
            updatedAt = now
        }
    }
}
