/// What a depacketizer made of one picture: its bitstream, or why there is none.
enum FrameAssembly {
    /// A whole picture: the bytes a decoder takes, whether it is a keyframe, its size when the
    /// bitstream says it (keyframes, SPS).
    case frame(bytes: [UInt8], isKeyframe: Bool, width: Int?, height: Int?)
    /// Dropped; `warning` says more when the file does something this reader does not handle.
    case lost(JanusLoss.Reason, warning: String? = nil)
}

/// Rebuilds pictures of one codec from their RTP payloads.
protocol VideoDepacketizer {
    mutating func assemble(_ frame: CollectedFrame) -> FrameAssembly
}
