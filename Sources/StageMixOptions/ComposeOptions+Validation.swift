import Foundation

/// A compose option with a value out of range or of the wrong shape: a usage error (exit 64).
public struct OptionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The option as typed, such as `--resolution`.
    public var option: String
    public var message: String

    public init(_ option: String, _ message: String) {
        self.option = option
        self.message = message
    }

    public var description: String { "\(option) \(message)" }
}

extension ComposeOptions {
    /// Throws the first ``OptionError``; checks shapes and ranges only, never reads a file.
    public func validate() throws {
        if follow == true, edits != nil {
            throw OptionError("--edits", "cannot be used with --follow: an edit may name any moment of a session not yet recorded")
        }
        if let resolution, Self.size(resolution) == nil {
            throw OptionError("--resolution", "must be WxH with even numbers from \(Self.minSide)x\(Self.minSide) to \(Self.maxWidth)x\(Self.maxHeight), such as 1280x720; got \(resolution)")
        }
        try check("--fps", fps.map(Double.init), in: Double(Self.fpsRange.lowerBound)...Double(Self.fpsRange.upperBound))
        try check("--pause-grace", pauseGrace, in: Self.pauseGraceRange)
        try check("--segment-seconds", segmentSeconds, in: Self.segmentSecondsRange)
        try check("--thumbnails", thumbnails, in: Self.thumbnailSecondsRange)
        if let segmentFormat, !Self.segmentFormats.contains(segmentFormat) {
            throw OptionError("--segment-format", "must be ts or fmp4; got \(segmentFormat)")
        }
        if let preset, !Self.presets.contains(preset) {
            throw OptionError("--preset", "must be one of \(Self.presets.joined(separator: ", ")); got \(preset)")
        }
        if videoBitrate != nil, crf != nil { throw OptionError("--crf", "cannot be given with --video-bitrate: choose constant quality or a bitrate") }
        try check("--crf", crf, in: Self.crfRange)
        try checkBitrate("--video-bitrate", videoBitrate, in: Self.videoBitrateRange)
        try checkBitrate("--audio-bitrate", audioBitrate, in: Self.audioBitrateRange)
        try check("--encoder-threads", encoderThreads.map(Double.init),
                  in: Double(Self.encoderThreadsRange.lowerBound)...Double(Self.encoderThreadsRange.upperBound))
        if let loudness, loudness.lowercased() != "off" {
            guard let lufs = Double(loudness), lufs.isFinite, Self.loudnessRange.contains(lufs) else {
                throw OptionError("--loudness", "must be off or a target in LUFS from -40 to -5, such as -16; got \(loudness)")
            }
        }
        try validateRenditions()
        try validateChunks()
        for (option, value) in [("--layout", layout), ("--prices", prices), ("--tiers", tiers), ("--overflow-tier", overflowTier), ("--edits", edits)] {
            if let value, value.trimmingCharacters(in: .whitespaces).isEmpty { throw OptionError(option, "must not be empty") }
        }
    }

    private func validateRenditions() throws {
        guard let renditions else { return }
        guard let ladder = RenditionSpec.list(renditions) else {
            throw OptionError("--renditions", "must be 1 to \(RenditionSpec.maxCount) renditions WxH@BITRATE[@FPS] separated by commas, such as 1920x1080@6000k,1280x720@3000k,640x360@800k@15 (even sizes from \(Self.minSide)x\(Self.minSide) to \(Self.maxWidth)x\(Self.maxHeight), bitrates from \(Self.videoBitrateRange.lowerBound / 1000)k to \(Self.videoBitrateRange.upperBound / 1000)k); got \(renditions)")
        }
        if videoBitrate != nil || crf != nil {
            throw OptionError("--renditions", "sets each rendition's bitrate: leave out --video-bitrate and --crf")
        }
        let sizes = ladder.map { "\($0.width)x\($0.height)" }
        if let twice = sizes.first(where: { size in sizes.filter { $0 == size }.count > 1 }) {
            throw OptionError("--renditions", "lists \(twice) twice: each rendition needs its own size")
        }
        let largest = RenditionSpec.ordered(ladder)[0]
        for spec in ladder {
            // Scaled from the largest, never stretched: the same shape (within the rounding to even
            // sizes), and never wider or taller.
            let skew = abs(Double(spec.width * largest.height) - Double(spec.height * largest.width)) / Double(largest.width * spec.height)
            guard spec.width <= largest.width, spec.height <= largest.height, skew <= 0.01 else {
                throw OptionError("--renditions", "\(spec.width)x\(spec.height) is not the shape of the largest rendition, \(largest.width)x\(largest.height): every rendition is scaled from it, never stretched")
            }
        }
        if let resolution, let size = Self.size(resolution), (size.width, size.height) != (largest.width, largest.height) {
            throw OptionError("--renditions", "composes at its largest rendition, \(largest.width)x\(largest.height): leave out --resolution or make it \(largest.width)x\(largest.height)")
        }
        // Against the layout's frame rate too, once it is known (CompositionInput).
        if let fps {
            for spec in ladder {
                if let problem = spec.problem(canvasFps: fps, segmentSeconds: segmentSecondsOrDefault) {
                    throw OptionError("--renditions", problem)
                }
            }
        }
    }

    /// A chunk is a whole number of segments, so that every chunk starts where a segment does, with a keyframe.
    private func validateChunks() throws {
        try check("--jobs", jobs.map(Double.init), in: Double(Self.jobsRange.lowerBound)...Double(Self.jobsRange.upperBound))
        guard let chunkSeconds else {
            if jobs != nil { throw OptionError("--jobs", "shares out chunks: give --chunk-seconds too") }
            return
        }
        try check("--chunk-seconds", chunkSeconds, in: Self.chunkSecondsRange)
        let segments = chunkSeconds / segmentSecondsOrDefault
        guard segments >= 1, abs(segments - segments.rounded()) < 1e-9 else {
            throw OptionError("--chunk-seconds", "must be a whole multiple of --segment-seconds (\(Self.plain(segmentSecondsOrDefault))), such as \(Self.plain(segmentSecondsOrDefault * max(1, segments.rounded(.down)))); got \(Self.plain(chunkSeconds))")
        }
    }

    private func check(_ option: String, _ value: Double?, in range: ClosedRange<Double>) throws {
        guard let value else { return }
        guard value.isFinite, range.contains(value) else {
            throw OptionError(option, "must be between \(Self.plain(range.lowerBound)) and \(Self.plain(range.upperBound)); got \(Self.plain(value))")
        }
    }

    private func checkBitrate(_ option: String, _ text: String?, in range: ClosedRange<Int>) throws {
        guard let text else { return }
        guard let bps = Self.bitrate(text), range.contains(bps) else {
            throw OptionError(option, "must be a bitrate such as 3000k or 3M, from \(range.lowerBound / 1000)k to \(range.upperBound / 1000)k; got \(text)")
        }
    }

    /// Parses `3000k`, `3M`, `128000` into bits per second; nil if it is not one or is out of Int's range.
    public static func bitrate(_ text: String) -> Int? {
        let lower = text.lowercased()
        let (digits, scale): (Substring, Double) = lower.hasSuffix("k") ? (lower.dropLast(), 1_000)
            : lower.hasSuffix("m") ? (lower.dropLast(), 1_000_000) : (Substring(lower), 1)
        guard let value = Double(digits), value.isFinite, value > 0, value * scale < 1e12 else { return nil }
        return Int(value * scale)
    }

    /// Parses `WxH` within the output size limits; both even, as 4:2:0 video needs.
    public static func size(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.count <= 6 }), let w = Int(parts[0]), let h = Int(parts[1]),
              (minSide...maxWidth).contains(w), (minSide...maxHeight).contains(h), w % 2 == 0, h % 2 == 0 else { return nil }
        return (w, h)
    }

    /// A number as people write it: `4`, not `4.0`; `2.5` as it is.
    public static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
