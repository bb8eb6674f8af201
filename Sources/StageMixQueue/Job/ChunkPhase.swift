/// Where a chunked composition is (docs/chunks.md, "On the queue"). Its job goes through two
/// phases, each taken by any worker: `plan` (plan once, write the chunks' work, queue the chunk
/// jobs), then `join`, taken at once by a worker's join slot while any workers encode the chunks:
/// it runs the loudness pass, then joins each chunk as it lands, with the audio mixed and encoded
/// once, and publishes once.
public enum ChunkPhase: String, Sendable, Codable, CaseIterable {
    case plan
    case join
}
