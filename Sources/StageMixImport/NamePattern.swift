/// A name pattern as platforms write them: `*` for any run of characters, anywhere (`screen*`,
/// `*-share`, `*cam*`); everything else literal, compared without regard to letter case.
public struct NamePattern: Sendable, Hashable {
    public let text: String
    private let parts: [Substring]

    public init(_ text: String) {
        self.text = text
        parts = text.lowercased().split(separator: "*", omittingEmptySubsequences: false)
    }

    public func matches(_ name: String) -> Bool {
        let name = name.lowercased()
        guard parts.count > 1 else { return name == text.lowercased() }
        guard name.hasPrefix(parts.first!), name.hasSuffix(parts.last!),
              name.count >= parts.first!.count + parts.last!.count else { return false }
        var rest = name.dropFirst(parts.first!.count).dropLast(parts.last!.count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
