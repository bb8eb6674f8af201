import StageMixCapture

/// A capture already read, as a source (the plan of what is known so far is made from the version just read).
struct StaticCapture: CaptureSource {
    let capture: Capture
    var location: String { capture.directory.path }
    func capture(inProgress: CaptureInProgress) throws(CaptureError) -> Capture { capture }
}
