/// Layouts are written in the shared geometry: whoever uses a layout sees `Rect`, `CanvasSize` and `RGBColor`.
@_exported import StageMixGeometry
