import Foundation
public import StageMixCapture
public import StageMixLayout
public import StageMixOptions

/// Everything a composition reads before any media: the capture, the layout, the tier and price
/// tables, and the plan worked out from them. `compose` and `enqueue` both go through here, so a job
/// is queued only if compose would accept it.
public enum CompositionInput {
    /// Input problems (a file, a JSON path, a track) are ``BadInput``: exit 65. An option that does
    /// not fit the layout (a rendition's frame rate against the layout's) is an ``OptionError``: exit 64.
    /// `speakers` is the audio-only speaker pass (StageMixPipeline's `SpeakerAnalysis`) for layouts that
    /// follow the speaker; without it (the service's checks, which read no media) they keep the pinned order.
    /// A capture still being recorded is refused unless `inProgress` says to plan what is known so far.
    /// `beforeMedia` sees the capture and layout before any media is read (compose's space check), and
    /// what it throws is thrown as it is.
    public static func plan(capture source: any CaptureSource, options: ComposeOptions, inProgress: CaptureInProgress = .refuse,
                            speakers: ((Capture, StageTimeline) throws -> SpeakerTimeline)? = nil,
                            beforeMedia: ((Capture, Layout) throws -> Void)? = nil) throws -> (Capture, Layout, PlanDocument) {
        do {
            let capture = try source.capture(inProgress: inProgress)
            let layoutName = options.layoutOrDefault
            // Neither a built-in nor a file: a mistyped option value (exit 64), with the likely name.
            let layoutFile = layoutName.hasPrefix(Layout.twilioPrefix) ? String(layoutName.dropFirst(Layout.twilioPrefix.count)) : layoutName
            if Layout.builtin(named: layoutName) == nil, !FileManager.default.fileExists(atPath: layoutFile) {
                let hint = NameSuggestion.closest(to: layoutName, among: Layout.builtinNames).map { "; did you mean \"\($0)\"?" } ?? ""
                throw OptionError("--layout", "\"\(layoutName)\" is neither a built-in layout (\(Layout.builtinNames.joined(separator: ", "))) nor a layout file\(hint)")
            }
            var twilioResolution: CanvasSize?
            if Layout.isTwilio(layoutName), let text = options.canvasSize {
                // Twilio composes from 16x16 to 1280x720 (921,600 pixels): a size past that is a wrong option value.
                guard let size = ComposeOptions.size(text).map({ CanvasSize(width: $0.width, height: $0.height) }) else {
                    throw OptionError("--resolution", "must be WxH with even sides; got \(text)")
                }
                if let problem = TwilioVideoLayout.resolutionProblem(size) {
                    throw OptionError("--resolution", "for a Twilio layout: \(problem)")
                }
                twilioResolution = size
            }
            var layout = try Layout.resolve(layoutName, twilioResolution: twilioResolution)
            if options.labels == false { layout = layout.withoutLabels }
            if options.canvasSize != nil || options.fps != nil {
                let size = options.canvasSize.flatMap(ComposeOptions.size).map { CanvasSize(width: $0.width, height: $0.height) }
                layout = layout.resized(to: size ?? layout.canvas, fps: options.fps)
            }
            for spec in options.ladder ?? [] {
                if let problem = spec.problem(canvasFps: layout.fps,
                                              segmentSeconds: options.segmentSecondsOrDefault) {
                    throw OptionError("--renditions", problem)
                }
            }
            var tiers = try options.tiers.map { try BillingTiers.load(contentsOf: URL(fileURLWithPath: $0)) } ?? .agora
            if let overflowTier = options.overflowTier { tiers = try BillingTiers(tiers: tiers.tiers, overflowTier: overflowTier) }
            let priceTable = try options.prices.map { try PriceTable.load(contentsOf: URL(fileURLWithPath: $0)) }
            let graceMs = options.pauseGraceMsOrDefault
            do { try beforeMedia?(capture, layout) } catch { throw PassedThrough(error: error) }
            let edits = try options.edits.map { try SessionEdits.load(contentsOf: URL(fileURLWithPath: $0), capture: capture) } ?? .none
            let doc = try PlanDocument(capture: capture, layout: layout, pauseGraceMs: graceMs, tiers: tiers, prices: priceTable,
                                       edits: edits, speakers: speakers.map { pass in { try pass(capture, $0) } })
            return (capture, layout, doc)
        } catch let error as OptionError {
            throw error
        } catch let passed as PassedThrough {
            throw passed.error
        } catch let stop as CancellationError {
            // Stopped by a signal during the speaker pass: not bad input.
            throw stop
        } catch {
            throw BadInput(error)
        }
    }
}

/// What `beforeMedia` threw, kept from being taken for bad input.
private struct PassedThrough: Error { var error: any Error }
