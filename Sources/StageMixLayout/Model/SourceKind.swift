/// What kind of video a layout source is.
public enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    case camera
    case screenShare = "screen_share"
}
