import Foundation
import StageMixMedia

/// A composed canvas shared by the sinks that take it on other threads: each holder lets go once,
/// and the last one hands the canvas back to the compositor to draw the next frame into.
final class CanvasLease: @unchecked Sendable {
    let canvas: CanvasFrame
    let index: Int
    private let lock = NSLock()
    private var holders: Int
    private let giveBack: (CanvasFrame) -> Void

    init(_ canvas: CanvasFrame, index: Int, holders: Int, giveBack: @escaping (CanvasFrame) -> Void) {
        self.canvas = canvas
        self.index = index
        self.holders = holders
        self.giveBack = giveBack
        if holders <= 0 { giveBack(canvas) }
    }

    func release() {
        let last = lock.withLock {
            holders -= 1
            return holders == 0
        }
        if last { giveBack(canvas) }
    }
}
