public import StageMixPublishing
import Foundation

/// A composition asked for over the HTTP API: the job that composes it (same id) plus what the
/// API caller gave and who they are. Stored in `stagemix_compositions`, beside the job.
public struct Composition: Sendable, Hashable {
    /// The job's id.
    public var id: String
    /// The API key that created it; only that key sees it.
    public var apiKey: String
    /// Hash of the key and the idempotency key (or the normalised request): one composition per value.
    public var requestKey: String
    /// Digest of the normalised request.
    public var requestDigest: String
    public var idempotencyKey: String?
    public var callbackURL: String?
    /// The capture as the caller named it: relative to a capture root, or an `s3://` URL.
    public var capture: String
    public var layout: String
    /// Where the output is published (stored in `output_directory` as its spelling).
    public var destination: OutputDestination
    public var createdAt: Double
    /// When the current attempt started composing (for the time left).
    public var startedAt: Double?
    /// Asked for through the Twilio-shaped API: its parameters; nil for the JSON API's.
    public var twilio: TwilioParameters?

    public init(id: String, apiKey: String, requestKey: String, requestDigest: String, idempotencyKey: String?, callbackURL: String?,
                capture: String, layout: String, destination: OutputDestination, createdAt: Double, startedAt: Double? = nil,
                twilio: TwilioParameters? = nil) {
        self.id = id
        self.apiKey = apiKey
        self.requestKey = requestKey
        self.requestDigest = requestDigest
        self.idempotencyKey = idempotencyKey
        self.callbackURL = callbackURL
        self.capture = capture
        self.layout = layout
        self.destination = destination
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.twilio = twilio
    }
}

extension Composition {
    /// The bytes of its `composition.mp4` when the output is a local folder that has one; nil in a
    /// bucket (not asked for) or without an MP4.
    public var localMediaBytes: Int? {
        guard let folder = destination.folder else { return nil }
        let attributes = try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(OutputFiles.mp4).path)
        return (attributes?[.size] as? NSNumber)?.intValue
    }
}
