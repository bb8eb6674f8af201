import StageMixMedia

/// Something fed every composed canvas, in order: a rendition's encoder, the thumbnail writer.
/// A new output kind is a new sink; the pipeline that composes the canvases does not change.
protocol CanvasSink: AnyObject {
    /// `canvas` is output frame `index`; it is valid only until this returns (it is reused).
    func take(_ canvas: CanvasFrame, index: Int) throws
    /// After the last frame: flush what is buffered.
    func finish() throws
}
