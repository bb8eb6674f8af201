import StageMixMedia

/// One file's packet timestamps as the probe reads them: where its media starts and ends, and where
/// the timestamps jump further than a recorder's silence suppression ever would.
struct PacketTimeline {
    /// A jump longer than this (seconds) is a gap: Opus DTX and slow screen shares stay well under it.
    static let gapThreshold = 1.0

    private(set) var first: Double?
    private(set) var end: Double?
    /// Media-time stretches `[from, to)` with no packet.
    private(set) var gaps: [(from: Double, to: Double)] = []

    mutating func add(pts: Double, duration: Double) {
        if let end, pts > end + Self.gapThreshold { gaps.append((end, pts)) }
        first = min(first ?? pts, pts)
        end = max(end ?? pts + duration, pts + duration)
    }

    mutating func add(_ packet: Packet) {
        guard let pts = packet.ptsSeconds else { return }
        add(pts: pts, duration: Double(packet.duration) * packet.timeBase.doubleValue)
    }
}
