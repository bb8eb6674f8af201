import Foundation
@testable import StageMixLayout

/// `count` cameras pinned in stage order, plus (when asked) a screen share from the first participant.
func stage(cameras count: Int, screenShare: Bool = false) -> [LayoutSource] {
    var sources = (0..<count).map { index in
        LayoutSource(participantId: "p\(index)", kind: .camera, pinnedAtMs: 1000 * index, stageOrder: index)
    }
    if screenShare {
        sources.append(LayoutSource(participantId: "p0", kind: .screenShare, pinnedAtMs: 0, stageOrder: 0))
    }
    return sources
}

/// The repository checkout, found from this file's path.
let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

func builtin(_ name: String) -> Layout {
    guard let layout = Layout.builtin(named: name) else { fatalError("no built-in layout \(name)") }
    return layout
}

func rect(_ x: Int, _ y: Int, _ width: Int, _ height: Int) -> Rect {
    Rect(x: x, y: y, width: width, height: height)
}
