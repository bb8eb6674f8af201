import Foundation
import StageMixCore
import StageMixLayout

/// One fuzz input taken as a `session.json`: parsed and validated, and when valid, planned with the
/// grid layout and rendered as `stagemix plan` would. Any input may be rejected; none may trap.
enum CaptureParserFuzz {
    /// Where the manifest's media paths point: a directory that does not exist, so no media is read.
    static let directory = URL(fileURLWithPath: "/nonexistent/stagemix-fuzz-capture")
    static let layout = Layout.builtin(named: "grid")!

    static func run(_ manifest: Data) {
        let capture: Capture
        do {
            capture = try CaptureReader.parse(manifest, directory: directory)
        } catch {
            _ = error.description
            return
        }
        _ = CaptureReader.missingMedia(in: capture)
        do {
            let document = try PlanDocument(capture: capture, layout: layout)
            let json: Data = try PlanDocument.encode(document)
            _ = json
            _ = PlanTextReport.render(document)
        } catch {
            _ = "\(error)"
        }
    }
}
