public import Foundation

extension ComposeOptions {
    /// The options as `stagemix compose` arguments, set ones only; parsing them gives this value back.
    public var arguments: [String] {
        var args: [String] = []
        func add(_ flag: String, _ value: String?) { if let value { args += [flag, value] } }
        add("--layout", layout)
        add("--resolution", resolution)
        add("--fps", fps.map(String.init))
        add("--pause-grace", pauseGrace.map(Self.plain))
        add("--prices", prices)
        add("--tiers", tiers)
        add("--overflow-tier", overflowTier)
        add("--edits", edits)
        if labels == false { args += ["--labels", "off"] }
        add("--segment-seconds", segmentSeconds.map(Self.plain))
        add("--segment-format", segmentFormat)
        add("--preset", preset)
        add("--video-bitrate", videoBitrate)
        add("--crf", crf.map(Self.plain))
        add("--audio-bitrate", audioBitrate)
        add("--encoder-threads", encoderThreads.map(String.init))
        add("--loudness", loudness)
        add("--thumbnails", thumbnails.map(Self.plain))
        add("--renditions", renditions)
        add("--chunk-seconds", chunkSeconds.map(Self.plain))
        add("--jobs", jobs.map(String.init))
        if mp4 == true { args.append("--mp4") }
        if overwrite == true { args.append("--overwrite") }
        if follow == true { args.append("--follow") }
        return args
    }

    /// Absolute, standardised file paths and trimmed, lower-cased words, so that two spellings of
    /// one request are one job.
    public func normalised(relativeTo directory: String = FileManager.default.currentDirectoryPath) -> ComposeOptions {
        func word(_ s: String?) -> String? {
            guard let t = s?.trimmingCharacters(in: .whitespaces), !t.isEmpty else { return nil }
            return t.lowercased()
        }
        func file(_ s: String?) -> String? {
            guard let t = s?.trimmingCharacters(in: .whitespaces), !t.isEmpty else { return nil }
            return Self.absolute(t, relativeTo: directory)
        }
        var n = self
        // A layout is a built-in name, a file or twilio:FILE; only a file path is made absolute.
        if let l = layout?.trimmingCharacters(in: .whitespaces), !l.isEmpty {
            let twilio = "twilio:"
            if l.hasPrefix(twilio) {
                n.layout = twilio + Self.absolute(String(l.dropFirst(twilio.count)), relativeTo: directory)
            } else {
                n.layout = (l.contains("/") || l.hasSuffix(".json")) ? Self.absolute(l, relativeTo: directory) : l
            }
        } else {
            n.layout = nil
        }
        n.prices = file(prices)
        n.tiers = file(tiers)
        n.edits = file(edits)
        n.resolution = word(resolution)
        n.segmentFormat = word(segmentFormat)
        n.preset = word(preset)
        n.videoBitrate = word(videoBitrate)
        n.audioBitrate = word(audioBitrate)
        n.loudness = word(loudness)
        n.renditions = word(renditions).map { $0.replacingOccurrences(of: " ", with: "") }
        if overwrite == false { n.overwrite = nil }
        if mp4 == false { n.mp4 = nil }
        if labels == true { n.labels = nil }
        return n
    }

    /// `path` made absolute against `directory`, standardised, without a trailing slash.
    public static func absolute(_ path: String, relativeTo directory: String) -> String {
        // A URL (`s3://bucket/prefix`) names the same place wherever it is read: kept as written.
        if path.contains("://") { return path }
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: directory).appendingPathComponent(path)
        var s = url.standardizedFileURL.path
        while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
        return s
    }
}
