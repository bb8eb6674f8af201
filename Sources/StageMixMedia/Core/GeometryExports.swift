/// Pictures are drawn in the shared geometry: whoever uses the media types sees `Rect`, `CanvasSize` and `RGBColor`.
@_exported import StageMixGeometry

extension Rect {
    /// The same rectangle with origin and size rounded down to even numbers,
    /// as 4:2:0 chroma planes need to address whole chroma samples.
    var alignedTo420: Rect {
        Rect(x: x & ~1, y: y & ~1, width: max(2, width & ~1), height: max(2, height & ~1))
    }
}
