import Foundation
import StageMixCapture
import StageMixPlan

/// The session of a followed run once it has ended: planned as a whole run plans it, and what the
/// follower found comparing that plan with the chunks it made while the session was recorded.
struct FollowedSession {
    var capture: Capture
    var document: PlanDocument
    /// Chunks of the whole session.
    var chunks: Int
    /// A chunk already handed to the join was made from a slice of plan the finished session's plan
    /// does not give (a layout that looks at the whole session: a speaker turn heard later, a grid
    /// sized by the most participants ever on stage): the join starts again from the first chunk.
    var restarts: Bool
    /// Chunks made while the session was recorded and kept.
    var kept: Int
    var log: FollowedChunks.Log
    /// The poster, taken by a one-frame job when the chunk holding it was made before the end.
    var poster: URL?
}
