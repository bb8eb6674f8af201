/// A video track as a Twilio layout sees it: what it can be called, and the stretches of the
/// composition's time in which its media is active (published and recorded), ascending and apart.
public struct TwilioVideoSource: Sendable, Hashable, Codable {
    /// The capture's track id.
    public var trackId: String
    public var identity: TwilioSourceIdentity
    public var spans: [Span]

    /// `[fromMs, toMs)` of active media.
    public struct Span: Sendable, Hashable, Codable {
        public var fromMs: Int
        public var toMs: Int
        public init(fromMs: Int, toMs: Int) {
            self.fromMs = fromMs
            self.toMs = toMs
        }
    }

    public init(trackId: String, identity: TwilioSourceIdentity, spans: [Span]) {
        self.trackId = trackId
        self.identity = identity
        self.spans = spans
    }
}
