/// The kinds of media a role may publish.
public enum PublishRight: String, Sendable, Hashable, Codable, CaseIterable {
    case audio, video, screen
}

/// A named role and what it may publish.
public struct Role: Sendable, Hashable, Codable {
    public var canPublish: Set<PublishRight>
    public init(canPublish: Set<PublishRight>) { self.canPublish = canPublish }
}
