/// A stretch of a Janus recording that could not be turned into media, in real time (the clock of
/// the header's `u`, CLOCK_REALTIME microseconds).
public struct JanusLoss: Sendable, Equatable, CustomStringConvertible {
    /// Why the media there is missing.
    public enum Reason: String, Sendable, Equatable {
        /// Video before the file's first keyframe: nothing can decode it.
        case beforeFirstKeyframe = "before the first keyframe"
        /// A frame with a packet missing (a sequence gap inside it, a fragment without its start or end).
        case missingPackets = "missing packets"
        /// Frames after a lost one, which refer to it: dropped until the next keyframe.
        case waitingForKeyframe = "after a lost frame, until the next keyframe"
        /// A frame larger than the assembly bound.
        case frameTooLarge = "frame too large"
        /// A payload this reader does not rebuild (H.264 STAP-B, MTAP, FU-B) or cannot parse.
        case unreadablePayload = "unreadable payload"
        /// Audio packets missing (a sequence gap): silence there.
        case missingAudio = "missing audio packets"
    }

    public var fromUs: Int64
    public var toUs: Int64
    public var reason: Reason

    public init(fromUs: Int64, toUs: Int64, reason: Reason) {
        self.fromUs = fromUs
        self.toUs = toUs
        self.reason = reason
    }

    public var description: String { "\(reason.rawValue) from \(fromUs) to \(toUs) µs" }

    /// How many losses of one file are told one by one; the rest are counted in one more line.
    static let toldOneByOne = 5

    /// The warnings for `losses` of the recording `file`: the first few each with its time, then how
    /// many more and how long they last in all (an hour on a bad network must not be ten thousand lines).
    public static func summary(_ losses: [JanusLoss], of file: String) -> [String] {
        var lines = losses.prefix(toldOneByOne).map { "\(file): \($0)" }
        let rest = losses.dropFirst(toldOneByOne)
        if let last = rest.last {
            let ms = rest.reduce(Int64(0)) { $0 + max(0, $1.toUs - $1.fromUs) } / 1000
            lines.append("\(file): \(rest.count) more losses (\(ms) ms in all) up to \(last.toUs) µs")
        }
        return lines
    }
}
