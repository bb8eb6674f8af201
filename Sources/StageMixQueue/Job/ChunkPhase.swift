/// Where a chunked composition is (docs/chunks.md, "On the queue"). Its job goes through three
/// phases, each taken by any worker: `plan` (plan once, write the chunks' work), `chunks` (the job
/// waits, holding no lease, while its chunk jobs are taken by any workers), `join` (join the
/// chunks, mix and encode the audio once, publish once).
public enum ChunkPhase: String, Sendable, Codable, CaseIterable {
    case plan
    case chunks
    case join
}
