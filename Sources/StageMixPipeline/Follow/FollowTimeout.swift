/// A recorder that stopped adding to the capture: nothing is published (exit 75).
public struct FollowTimeout: Error, CustomStringConvertible {
    public var completeToMs: Int
    public var seconds: Double
    public var description: String {
        "the recorder added nothing for \(Int(seconds)) s (the capture is complete to \(completeToMs) ms); nothing was published"
    }
}
