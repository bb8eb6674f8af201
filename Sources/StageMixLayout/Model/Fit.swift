/// How a source's frame is scaled into its tile; see `FitGeometry`.
public enum Fit: String, Sendable, Hashable, Codable, CaseIterable {
    /// The whole frame is visible, centred, with bars of the region's background.
    case contain
    /// The tile is filled and the frame's centre is cropped.
    case cover
}
