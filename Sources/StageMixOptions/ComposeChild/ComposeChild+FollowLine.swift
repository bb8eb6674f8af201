import Foundation

extension ComposeChild {
    /// The line `stagemix compose --follow` prints on stdout when it is not a terminal, each time the
    /// session recorded so far or the part of it composed has moved, and the worker reads:
    /// `{"event":"following","recordedSeconds":12.0,"composedSeconds":8.0}`. A followed composition's
    /// length is unknown until the session ends, so these two positions, not a percent, tell how far it is.
    public struct FollowLine: Sendable, Hashable, Decodable {
        /// Session seconds recorded so far (`recording.completeToMs`).
        public var recordedSeconds: Double
        /// Session seconds composed: the end of the chunks made so far, never past `recordedSeconds`.
        public var composedSeconds: Double

        public init(recordedSeconds: Double, composedSeconds: Double) {
            self.recordedSeconds = recordedSeconds
            self.composedSeconds = composedSeconds
        }

        /// The positions in milliseconds of session time, as the follower has them.
        public init(recordedMs: Int, composedMs: Int) {
            self.init(recordedSeconds: Double(recordedMs) / 1000, composedSeconds: Double(composedMs) / 1000)
        }

        private static let event = "following"

        private enum CodingKeys: String, CodingKey {
            case event, recordedSeconds, composedSeconds
        }

        /// The line as compose prints it, without the newline: both positions to the millisecond.
        public var text: String {
            String(format: #"{"%@":"%@","%@":%.3f,"%@":%.3f}"#,
                   CodingKeys.event.stringValue, Self.event, CodingKeys.recordedSeconds.stringValue, recordedSeconds,
                   CodingKeys.composedSeconds.stringValue, composedSeconds)
        }

        /// The positions in `line`, or nil when it is not a following line.
        public init?(parsing line: String) {
            guard line.first == "{", let parsed = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)) else { return nil }
            self = parsed
        }

        /// Reads a following event: both positions, finite and not negative.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard try container.decode(String.self, forKey: .event) == Self.event else {
                throw DecodingError.dataCorruptedError(forKey: .event, in: container, debugDescription: "not a following event")
            }
            recordedSeconds = try container.decode(Double.self, forKey: .recordedSeconds)
            composedSeconds = try container.decode(Double.self, forKey: .composedSeconds)
            guard recordedSeconds.isFinite, composedSeconds.isFinite, recordedSeconds >= 0, composedSeconds >= 0 else {
                throw DecodingError.dataCorruptedError(forKey: .recordedSeconds, in: container, debugDescription: "not a position")
            }
        }
    }
}
