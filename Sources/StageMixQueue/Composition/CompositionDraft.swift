/// What `POST /v1/compositions` asks for, checked and resolved: who asks, the spec to compose
/// (its `out` is filled in with the composition's own folder), and the keys that make a second
/// identical request return the first composition.
public struct CompositionDraft: Sendable {
    public var apiKey: String
    /// One composition per request key (see ``Composition/requestKey``).
    public var requestKey: String
    /// Digest of the normalised request: the same idempotency key with another request is a conflict.
    public var requestDigest: String
    public var idempotencyKey: String?
    public var callbackURL: String?
    public var capture: String
    public var layout: String
    public var spec: JobSpec
    public var maxAttempts: Int
    /// Asked for through the Twilio-shaped API.
    public var twilio: TwilioParameters?

    public init(apiKey: String, requestKey: String, requestDigest: String, idempotencyKey: String?, callbackURL: String?,
                capture: String, layout: String, spec: JobSpec, maxAttempts: Int, twilio: TwilioParameters? = nil) {
        self.apiKey = apiKey
        self.requestKey = requestKey
        self.requestDigest = requestDigest
        self.idempotencyKey = idempotencyKey
        self.callbackURL = callbackURL
        self.capture = capture
        self.layout = layout
        self.spec = spec
        self.maxAttempts = maxAttempts
        self.twilio = twilio
    }
}
