public import ArgumentParser
import Foundation
public import StageMixCapture
public import StageMixPlan
public import StageMixLayout
public import StageMixOptions

/// The capture and the options that shape its plan: layout, canvas, grace, billing. Declared here
/// once for `plan`, `preview`, `compose` and `enqueue`; the values live in ``ComposeOptions``.
public struct PlanOptions: ParsableArguments {
    @Argument(help: "The capture: a folder holding session.json, or an s3://bucket/prefix holding it.")
    public var capture: String

    @Option(help: "Layout: a built-in name (\(Layout.builtinNames.joined(separator: ", "))) a layout JSON file, or twilio:FILE for a Twilio VideoLayout (docs/layouts.md). Default: \(ComposeOptions.defaultLayout).")
    public var layout: String?

    @Option(help: "Output size WxH, such as 1280x720. Default: the layout's canvas.")
    public var resolution: String?

    @Option(help: "Output frame rate, whole frames per second (1 to 120). Default: the layout's.",
            transform: PlanOptions.wholeFrameRate)
    public var fps: Int?

    @Option(help: "Seconds a paused stream holds its last frame before the placeholder. Default: \(ComposeOptions.plain(ComposeOptions.defaultPauseGraceSeconds)).")
    public var pauseGrace: Double?

    @Option(help: "Price table JSON ({\"currency\": ..., \"perMinute\": {tier: price}}) to cost the billing.")
    public var prices: String?

    @Option(help: "Tier table JSON ({\"tiers\": [{\"name\": ..., \"maxPixels\": ...}], \"overflowTier\": ...}); default Agora's.")
    public var tiers: String?

    @Option(help: "Name of a tier for aggregates above the highest (default: such a session is an error).")
    public var overflowTier: String?

    @Option(help: "Edit file JSON (docs/edits.md): participants left out ({\"exclude\": [{\"participant\": ID, \"ranges\": [{\"from\": S, \"to\": S}]}]}), microphones muted ({\"mute\": [...]}), time taken out ({\"trim\": {\"start\": S, \"end\": S}, \"cut\": [{\"from\": S, \"to\": S}]}). Times are session seconds.")
    public var edits: String?

    @Option(help: "Participants' names on their tiles, as the layout places them: on or off. Default: on.")
    public var labels: LabelSwitch?

    public init() {}

    /// These options' part of ``ComposeOptions``.
    public func apply(to options: inout ComposeOptions) {
        options.layout = layout
        options.resolution = resolution
        options.fps = fps
        options.pauseGrace = pauseGrace
        options.prices = prices
        options.tiers = tiers
        options.overflowTier = overflowTier
        options.edits = edits
        options.labels = labels.map { $0 == .on }
    }

    public var options: ComposeOptions {
        var options = ComposeOptions()
        apply(to: &options)
        return options
    }

    public func validate() throws { try options.validateForCommandLine() }

    /// Reads the capture and layout and works out the plan; input problems exit with `ExitCode.badInput`.
    /// `inProgress`: what to do with a capture still being recorded (only `plan` plans what is known so far).
    public func planDocument(inProgress: CaptureInProgress = .refuse,
                             speakers: ((Capture, StageTimeline) throws -> SpeakerTimeline)? = nil) throws -> (Capture, Layout, PlanDocument) {
        let planned = try CompositionInput.plan(capture: CaptureSources.source(at: capture), options: options, inProgress: inProgress,
                                                speakers: speakers)
        // The speaker pass read the microphones: a store that failed a read is not a silent microphone.
        try planned.0.checkStorage()
        return planned
    }
}

extension ComposeOptions {
    /// ``validate()`` as argument parsing reports it: a usage error, exit 64.
    public func validateForCommandLine() throws {
        do { try validate() } catch { throw ValidationError("\(error)") }
    }
}

/// `--labels on|off`.
public enum LabelSwitch: String, ExpressibleByArgument, CaseIterable, Sendable {
    case on, off
}

extension PlanOptions {
    /// `--fps` as a whole number, with the reason when it is not one: ArgumentParser alone says only "invalid".
    static func wholeFrameRate(_ text: String) throws -> Int {
        let range = ComposeOptions.fpsRange
        if let fps = Int(text), range.contains(fps) { return fps }
        if let value = Double(text), value.isFinite, value.rounded() != value {
            throw ValidationError("frame rates are whole frames per second from \(range.lowerBound) to \(range.upperBound); "
                                  + "\(text) is fractional (for NTSC-style 29.97 use 30)")
        }
        throw ValidationError("expected whole frames per second from \(range.lowerBound) to \(range.upperBound)")
    }
}
