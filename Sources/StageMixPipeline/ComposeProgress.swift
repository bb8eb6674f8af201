/// How far a composition has got.
public struct ComposeProgress: Sendable, Codable {
    /// Session time composed so far.
    public var composedSeconds: Double
    public var totalSeconds: Double
    /// Wall-clock seconds since the start.
    public var elapsedSeconds: Double

    public var percent: Double { totalSeconds > 0 ? min(100, composedSeconds / totalSeconds * 100) : 100 }
    /// Session seconds composed per wall-clock second.
    public var speed: Double { elapsedSeconds > 0 ? composedSeconds / elapsedSeconds : 0 }
    public var etaSeconds: Double { speed > 0 ? (totalSeconds - composedSeconds) / speed : 0 }
}
