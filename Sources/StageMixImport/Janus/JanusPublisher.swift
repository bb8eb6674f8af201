/// One VideoRoom publisher as the events tell it: one participant, named by `display` and
/// identified by the VideoRoom id, across unpublishing and publishing again.
struct JanusPublisher: Sendable, Equatable {
    /// One stretch of publishing: from `published` to the first of `unpublished`, `leaving`,
    /// `kicked` or the WebRTC `hangup` (nil while the log ends first).
    struct Publish: Sendable, Equatable {
        var startUs: Int64
        var endUs: Int64?
        /// Media `receiving` false/true while it lasts: (time, kind `audio`/`video`, receiving).
        var receiving: [(atUs: Int64, kind: String, receiving: Bool)] = []

        static func == (a: Publish, b: Publish) -> Bool {
            a.startUs == b.startUs && a.endUs == b.endUs && a.receiving.map { "\($0.atUs)\($0.kind)\($0.receiving)" }
                == b.receiving.map { "\($0.atUs)\($0.kind)\($0.receiving)" }
        }
    }

    var id: String
    var display: String?
    var joinedUs: Int64
    var leftUs: Int64?
    var publishes: [Publish] = []
    /// `configured` requests (a recording's file is made at the first after a publish is asked for).
    var configuredUs: [Int64] = []

    var isPublishing: Bool { publishes.last.map { $0.endUs == nil } ?? false }

    /// The publish a recording made at `createdUs` belongs to: the first that starts after it (less a
    /// second: `published` comes after ICE, the recorder at `configured`) and has not ended before it.
    func publishIndex(ofRecordingMadeAt createdUs: Int64) -> Int? {
        publishes.firstIndex { $0.startUs >= createdUs - 1_000_000 && ($0.endUs ?? .max) > createdUs }
    }
}
