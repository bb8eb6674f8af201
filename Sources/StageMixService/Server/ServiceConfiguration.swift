public import Foundation
public import StageMixQueue

/// What `stagemix serve` was told.
public struct ServiceConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var queue: QueueURL
    public var captureRoots: [String]
    /// `s3://bucket/prefix` URLs: where captures may be read from and outputs written (``StorageAllowList``).
    public var allowStorage: [String]
    public var keysPath: String
    /// Compose jobs this process runs at once (0: it only serves; `stagemix worker`s compose).
    public var workers: Int
    /// Where each composition is published, as `<outputRoot>/<id>`: a folder, or an `s3://` prefix within `allowStorage`.
    public var outputRoot: String
    /// The local folder documents given inline are kept in for the jobs; nil for the default
    /// (`<outputRoot>/.stagemix-inputs`, or `./stagemix-inputs` when the output root is a bucket).
    public var inputsRoot: String?
    /// Where clients reach the service (`--public-url`), for the absolute URLs the Twilio-shaped routes
    /// give out; nil: `http://` and the request's `Host`.
    public var publicURL: String?
    public var allowPrivateCallbacks: Bool
    public var maxAttempts: Int
    public var webhookRetry: WebhookRetry
    public var worker: WorkerConfiguration
    public var queueOptions: QueueOptions
    /// Janus's event handler as a client, and its rooms composed when they end; nil: off.
    public var janus: JanusConfiguration?

    public init(host: String, port: Int, queue: QueueURL, captureRoots: [String], allowStorage: [String] = [], keysPath: String, workers: Int,
                outputRoot: String, inputsRoot: String? = nil, publicURL: String? = nil, allowPrivateCallbacks: Bool, maxAttempts: Int = 3,
                webhookRetry: WebhookRetry = WebhookRetry(), worker: WorkerConfiguration = WorkerConfiguration(),
                queueOptions: QueueOptions = QueueOptions(), janus: JanusConfiguration? = nil) {
        self.host = host
        self.port = port
        self.queue = queue
        self.captureRoots = captureRoots
        self.allowStorage = allowStorage
        self.keysPath = keysPath
        self.workers = workers
        self.outputRoot = outputRoot
        self.inputsRoot = inputsRoot
        self.publicURL = publicURL
        self.allowPrivateCallbacks = allowPrivateCallbacks
        self.maxAttempts = maxAttempts
        self.webhookRetry = webhookRetry
        self.worker = worker
        self.queueOptions = queueOptions
        self.janus = janus
    }
}
