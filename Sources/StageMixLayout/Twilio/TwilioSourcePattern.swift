/// An entry of `video_sources`, `video_sources_excluded`, `AudioSources` or `AudioSourcesExcluded`: a
/// recording, track or participant sid, or a track name with at most one `*` at its start or its end
/// (`student*`, `*-cam`; `*` alone is every track). Names are compared exactly, as Twilio does.
public struct TwilioSourcePattern: Sendable, Hashable, Codable, CustomStringConvertible {
    public let text: String

    /// Nil for text Twilio does not accept: empty, or a `*` other than one leading or trailing.
    public init?(_ text: String) {
        guard !text.isEmpty else { return nil }
        let stars = text.filter { $0 == "*" }.count
        if text != "*" {
            guard stars <= 1, stars == 0 || text.hasPrefix("*") || text.hasSuffix("*") else { return nil }
        }
        self.text = text
    }

    public var description: String { text }

    public func matches(_ source: TwilioSourceIdentity) -> Bool {
        if text == source.recordingSid || text == source.trackSid || text == source.participantSid { return true }
        if text == "*" { return true }
        if text.hasPrefix("*") { return source.trackName.hasSuffix(text.dropFirst()) }
        if text.hasSuffix("*") { return source.trackName.hasPrefix(text.dropLast()) }
        return source.trackName == text
    }
}
