import Foundation
import StageMixCore
import StageMixLayout

/// A whole `stagemix compose`: plan, compose, write reports, publish atomically.
public struct CompositionJob: Sendable {
    public let capture: Capture
    public let document: PlanDocument
    public let settings: ComposeSettings

    public init(capture: Capture, document: PlanDocument, settings: ComposeSettings) {
        self.capture = capture
        self.document = document
        self.settings = settings
    }

    /// What was written, and what was lost.
    public struct Report: Sendable, Codable {
        public var sessionId: String
        public var durationSeconds: Double
        public var frames: Int
        public var canvas: String
        public var fps: Int
        public var layout: String
        public var segmentSeconds: Double
        public var segmentFormat: String
        public var warnings: [String]
        /// Media file to why it could not be read; the composition shows placeholders or silence there.
        public var lostMedia: [String: String]
        /// Every stretch of session time in which a subscribed track could not be shown or heard as planned:
        /// track, planned layer, `[fromMs, toMs)`, cause, and the layer that stood in. Empty when nothing was lost.
        public var losses: [MediaLoss]
        /// Video frames decoded per layer file.
        public var decodedFrames: [String: Int]
        public var composeSeconds: Double
        /// Where the CPU went, in seconds of CPU time (all threads).
        public var cpuSeconds: CPUSeconds
    }

    /// Composes into `out`: `hls/`, `timeline.json`, `billing.json`, `plan.json`, `report.json`.
    @discardableResult
    public func run(out: URL, progress: (ComposeProgress) -> Void = { _ in },
                    shouldStop: () -> Bool = { false }) throws -> Report {
        let output = try OutputDirectory(target: out)
        do {
            let started = Date()
            let hls = output.staging.appendingPathComponent("hls")
            try FileManager.default.createDirectory(at: hls, withIntermediateDirectories: false)
            var lost: [String: String] = [:]
            for problem in CaptureReader.missingMedia(in: capture) { lost[problem.path] = problem.description }
            let result = try Composer(capture: capture, plan: document.plan, settings: settings)
                .run(hlsDirectory: hls, progress: progress, shouldStop: shouldStop)
            lost.merge(result.lostMedia) { a, _ in a }
            let plan = document.plan
            let report = Report(
                sessionId: plan.sessionId, durationSeconds: Double(plan.durationMs) / 1000, frames: result.frames,
                canvas: "\(plan.canvas.width)x\(plan.canvas.height)", fps: plan.fps, layout: plan.layoutName,
                segmentSeconds: settings.segmentSeconds, segmentFormat: settings.segmentFormat.rawValue,
                warnings: document.warnings, lostMedia: lost, losses: result.losses, decodedFrames: result.decodedFrames, composeSeconds: Date().timeIntervalSince(started),
                cpuSeconds: result.cpuSeconds)
            try write(document.timeline, to: "timeline.json", in: output.staging)
            try write(document.billing, to: "billing.json", in: output.staging)
            try write(document.plan, to: "plan.json", in: output.staging)
            try write(report, to: "report.json", in: output.staging)
            try output.publish()
            return report
        } catch {
            output.discard()
            throw error
        }
    }

    private func write<T: Encodable>(_ value: T, to name: String, in directory: URL) throws {
        try PlanDocument.encode(value).write(to: directory.appendingPathComponent(name))
    }
}
