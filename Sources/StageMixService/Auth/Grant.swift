/// What a token allows: `compose` (create compositions and dry-run plans), `read` (look at them),
/// `cancel` (cancel them).
public enum Grant: String, Sendable, Codable, CaseIterable {
    case compose
    case read
    case cancel
}
