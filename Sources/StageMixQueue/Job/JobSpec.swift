import Foundation

/// What to compose: a capture, where to publish it, and the compose options.
/// Two specs that normalise to the same value are the same job (see ``dedupeKey``).
public struct JobSpec: Sendable, Codable, Hashable {
    public var capture: String
    public var out: String
    public var layout: String?
    public var resolution: String?
    public var fps: Int?
    public var segmentSeconds: Double?
    public var segmentFormat: String?
    public var preset: String?
    public var videoBitrate: String?
    public var crf: Int?
    public var audioBitrate: String?

    public init(
        capture: String, out: String, layout: String? = nil, resolution: String? = nil, fps: Int? = nil,
        segmentSeconds: Double? = nil, segmentFormat: String? = nil, preset: String? = nil,
        videoBitrate: String? = nil, crf: Int? = nil, audioBitrate: String? = nil
    ) {
        self.capture = capture
        self.out = out
        self.layout = layout
        self.resolution = resolution
        self.fps = fps
        self.segmentSeconds = segmentSeconds
        self.segmentFormat = segmentFormat
        self.preset = preset
        self.videoBitrate = videoBitrate
        self.crf = crf
        self.audioBitrate = audioBitrate
    }

    /// Absolute, standardised paths and lower-cased option words, so that `./a/../cap` and `cap` match.
    public func normalised(relativeTo directory: String = FileManager.default.currentDirectoryPath) -> JobSpec {
        func path(_ p: String) -> String {
            let url = p.hasPrefix("/") ? URL(fileURLWithPath: p) : URL(fileURLWithPath: directory).appendingPathComponent(p)
            var s = url.standardizedFileURL.path
            while s.count > 1 && s.hasSuffix("/") { s.removeLast() }
            return s
        }
        func word(_ s: String?) -> String? {
            guard let t = s?.trimmingCharacters(in: .whitespaces), !t.isEmpty else { return nil }
            return t.lowercased()
        }
        var n = self
        n.capture = path(capture)
        n.out = path(out)
        // A layout is a builtin name or a file; only a file path is made absolute.
        if let l = layout?.trimmingCharacters(in: .whitespaces), !l.isEmpty {
            n.layout = (l.contains("/") || l.hasSuffix(".json")) ? path(l) : l
        } else {
            n.layout = nil
        }
        n.resolution = word(resolution)
        n.segmentFormat = word(segmentFormat)
        n.preset = word(preset)
        n.videoBitrate = word(videoBitrate)
        n.audioBitrate = word(audioBitrate)
        return n
    }

    /// Canonical JSON of the spec: sorted keys, nils omitted.
    public var canonicalJSON: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a struct of strings and numbers cannot fail.
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// Hash of the normalised spec; equal keys mean "the same job".
    public var dedupeKey: String {
        SHA256Digest.hex(of: Array(normalised().canonicalJSON.utf8))
    }

    /// Arguments after `compose`, with `--out` pointing at `outDirectory` (the attempt's temp dir).
    public func composeArguments(outDirectory: String) -> [String] {
        var args = [capture, "--out", outDirectory]
        func add(_ flag: String, _ value: String?) { if let value { args += [flag, value] } }
        add("--layout", layout)
        add("--resolution", resolution)
        add("--fps", fps.map(String.init))
        add("--segment-seconds", segmentSeconds.map { $0 == $0.rounded() ? String(Int($0)) : String($0) })
        add("--segment-format", segmentFormat)
        add("--preset", preset)
        add("--video-bitrate", videoBitrate)
        add("--crf", crf.map(String.init))
        add("--audio-bitrate", audioBitrate)
        return args
    }
}
