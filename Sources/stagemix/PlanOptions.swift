import ArgumentParser
import Foundation
import StageMixCore
import StageMixLayout

/// Options shared by every command that works out a plan: capture, layout, canvas, grace, billing.
struct PlanOptions: ParsableArguments {
    @Argument(help: "The capture directory (holding session.json).")
    var capture: String

    @Option(help: "Layout: a built-in name (\(Layout.builtinNames.joined(separator: ", "))) or a layout JSON file.")
    var layout: String = "grid"

    @Option(help: "Output size WxH, such as 1280x720. Default: the layout's canvas.")
    var resolution: String?

    @Option(help: "Output frame rate. Default: the layout's.")
    var fps: Int?

    @Option(help: "Seconds a paused stream holds its last frame before the placeholder.")
    var pauseGrace: Double = Double(StageTimeline.defaultPauseGraceMs) / 1000

    @Option(help: "Price table JSON ({\"currency\": ..., \"perMinute\": {tier: price}}) to cost the billing.")
    var prices: String?

    @Option(help: "Tier table JSON ({\"tiers\": [{\"name\": ..., \"maxPixels\": ...}], \"overflowTier\": ...}); default Agora's.")
    var tiers: String?

    @Option(help: "Name of a tier for aggregates above the highest (default: such a session is an error).")
    var overflowTier: String?

    func validate() throws {
        if let resolution, CanvasSize(parsing: resolution) == nil {
            throw ValidationError("--resolution must be WxH with even numbers from 2 to 8192, such as 1280x720; got \(resolution)")
        }
        if let fps, !(1...120).contains(fps) { throw ValidationError("--fps must be between 1 and 120") }
        if !(0...86_400).contains(pauseGrace) { throw ValidationError("--pause-grace must be between 0 and 86400 seconds") }
    }

    /// Reads the capture and layout and works out the plan; input problems exit with `ExitCode.badInput`.
    func planDocument() throws -> (Capture, Layout, PlanDocument) {
        do {
            let capture = try CaptureReader.read(directory: URL(fileURLWithPath: self.capture))
            var layout = try Layout.resolve(self.layout)
            if resolution != nil || fps != nil {
                layout = layout.resized(to: resolution.flatMap(CanvasSize.init(parsing:)) ?? layout.canvas, fps: fps)
            }
            var tiers = try self.tiers.map { try BillingTiers.load(contentsOf: URL(fileURLWithPath: $0)) } ?? .agora
            if let overflowTier { tiers = try BillingTiers(tiers: tiers.tiers, overflowTier: overflowTier) }
            let priceTable = try prices.map { try PriceTable.load(contentsOf: URL(fileURLWithPath: $0)) }
            let doc = try PlanDocument(capture: capture, layout: layout, pauseGraceMs: Int(pauseGrace * 1000),
                                       tiers: tiers, prices: priceTable)
            return (capture, layout, doc)
        } catch {
            throw BadInput(error)
        }
    }
}

extension CanvasSize {
    /// Parses `WxH`; both even and positive, as 4:2:0 video needs.
    init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]),
              LayoutLimits.canvasSide.contains(w), LayoutLimits.canvasSide.contains(h), w % 2 == 0, h % 2 == 0 else { return nil }
        self.init(width: w, height: h)
    }
}
