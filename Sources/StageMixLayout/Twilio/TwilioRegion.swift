/// One region of a Twilio `VideoLayout`: a rectangle of the composition, in pixels, whose static grid
/// shows the video sources its `video_sources` name and `video_sources_excluded` does not
/// (see docs/layouts.md, "Twilio's VideoLayout").
public struct TwilioRegion: Sendable, Hashable, Codable {
    /// The region's key in the `VideoLayout` object.
    public var name: String
    public var x: Int
    public var y: Int
    /// Drawing order: higher on top, from -99 to 99.
    public var z: Int
    public var width: Int
    public var height: Int
    /// Limits of the grid; nil lets that side grow as the sources need.
    public var maxColumns: Int?
    public var maxRows: Int?
    /// Cells (0 at the top left, left to right, then top to bottom) that never show a source.
    public var cellsExcluded: Set<Int>
    public var reuse: TwilioReuse
    public var videoSources: [TwilioSourcePattern]
    public var videoSourcesExcluded: [TwilioSourcePattern]

    public init(name: String, x: Int = 0, y: Int = 0, z: Int = 0, width: Int, height: Int, maxColumns: Int? = nil,
                maxRows: Int? = nil, cellsExcluded: Set<Int> = [], reuse: TwilioReuse = .showOldest,
                videoSources: [TwilioSourcePattern], videoSourcesExcluded: [TwilioSourcePattern] = []) {
        self.name = name
        self.x = x
        self.y = y
        self.z = z
        self.width = width
        self.height = height
        self.maxColumns = maxColumns
        self.maxRows = maxRows
        self.cellsExcluded = cellsExcluded
        self.reuse = reuse
        self.videoSources = videoSources
        self.videoSourcesExcluded = videoSourcesExcluded
    }

    /// Whether the region shows `source`: named by `video_sources` and not by `video_sources_excluded`.
    public func takes(_ source: TwilioSourceIdentity) -> Bool {
        videoSources.contains { $0.matches(source) } && !videoSourcesExcluded.contains { $0.matches(source) }
    }
}
