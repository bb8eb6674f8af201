public import Foundation

/// What a composition adds to the page beyond its plan: when and how fast it ran, where the CPU went,
/// what was lost, the warnings, and the media beside the page (the MP4, the thumbnails).
public struct ComposedRun: Sendable {
    public struct Loss: Sendable, Hashable {
        public var trackId: String
        public var fromMs: Int
        public var toMs: Int
        public var message: String
        public init(trackId: String, fromMs: Int, toMs: Int, message: String) {
            self.trackId = trackId
            self.fromMs = fromMs
            self.toMs = toMs
            self.message = message
        }
    }

    public var composedAt: Date
    public var composeSeconds: Double
    /// Where the CPU went, by part, in seconds, largest first as given.
    public var cpuSeconds: [(part: String, seconds: Double)]
    public var losses: [Loss]
    public var warnings: [String]
    /// `composition.mp4` is beside the page.
    public var mp4: Bool
    /// Thumbnails beside the page: the output instant each shows, and its relative path.
    public var thumbnails: [(ms: Int, file: String)]
    /// Renditions as `--renditions` named them; empty for one.
    public var renditions: [String]

    public init(composedAt: Date, composeSeconds: Double, cpuSeconds: [(part: String, seconds: Double)], losses: [Loss], warnings: [String],
                mp4: Bool, thumbnails: [(ms: Int, file: String)], renditions: [String]) {
        self.composedAt = composedAt
        self.composeSeconds = composeSeconds
        self.cpuSeconds = cpuSeconds
        self.losses = losses
        self.warnings = warnings
        self.mp4 = mp4
        self.thumbnails = thumbnails
        self.renditions = renditions
    }
}
