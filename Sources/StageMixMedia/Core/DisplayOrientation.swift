internal import CFFmpeg
import Foundation

/// How a stored picture is turned to be shown: a number of clockwise quarter turns, after an
/// optional mirror (left-right), as an MP4's display matrix says (a phone held upright records
/// landscape pictures with a 90° matrix). Players apply it; so does the compositor, before fitting.
public struct DisplayOrientation: Hashable, Sendable, CustomStringConvertible {
    /// Clockwise quarter turns, 0...3.
    public var quarterTurns: Int
    /// Mirrored left-right before turning.
    public var mirrored: Bool

    public init(quarterTurns: Int = 0, mirrored: Bool = false) {
        self.quarterTurns = ((quarterTurns % 4) + 4) % 4
        self.mirrored = mirrored
    }

    public static let upright = DisplayOrientation()

    public var isUpright: Bool { quarterTurns == 0 && !mirrored }
    /// True when the shown picture's width is the stored height.
    public var swapsSides: Bool { quarterTurns % 2 == 1 }

    public var description: String { "\(quarterTurns * 90)° clockwise\(mirrored ? ", mirrored" : "")" }

    /// From a 3x3 display matrix (16.16 fixed point, as libavutil stores it). Angles that are not
    /// quarter turns are rounded to the nearest one.
    init(displayMatrix matrix: UnsafePointer<Int32>) {
        // A negative determinant of the 2x2 part means a mirror.
        let a = Double(matrix[0]), b = Double(matrix[1]), c = Double(matrix[3]), d = Double(matrix[4])
        let mirrored = a * d - b * c < 0
        var m = [Int32](UnsafeBufferPointer(start: matrix, count: 9))
        if mirrored { m[0] = -m[0]; m[3] = -m[3] }  // take the mirror out to read the rotation
        // av_display_rotation_get is counter-clockwise; the picture is shown turned the other way.
        let counterClockwise = m.withUnsafeBufferPointer { av_display_rotation_get($0.baseAddress!) }
        let turns = counterClockwise.isFinite ? Int((-counterClockwise / 90).rounded()) : 0
        self.init(quarterTurns: turns, mirrored: mirrored)
    }

    /// The orientation a stream's display matrix side data gives (upright when it has none).
    init(stream: UnsafePointer<AVStream>) {
        var size: Int = 0
        guard let data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            self = .upright
            return
        }
        self = data.withMemoryRebound(to: Int32.self, capacity: 9) { DisplayOrientation(displayMatrix: $0) }
    }
}
