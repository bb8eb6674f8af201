public import Foundation
public import StageMixOptions
public import StageMixPublishing

/// What to compose: a capture, where to publish it, and the compose options (declared once, in
/// ``ComposeOptions``). Two specs that normalise to the same value are the same job (see ``dedupeKey``).
/// Stored as one flat JSON object: `capture`, `out`, and the options' keys beside them.
public struct JobSpec: Sendable, Codable, Hashable {
    public var capture: String
    /// Where the output is published: an ``OutputDestination`` as written (a folder's path today).
    public var out: String
    public var options: ComposeOptions

    public init(capture: String, out: String, options: ComposeOptions = ComposeOptions()) {
        self.capture = capture
        self.out = out
        self.options = options
    }

    private enum CodingKeys: String, CodingKey { case capture, out }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        capture = try container.decode(String.self, forKey: .capture)
        out = try container.decode(String.self, forKey: .out)
        options = try ComposeOptions(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(capture, forKey: .capture)
        try container.encode(out, forKey: .out)
        try options.encode(to: encoder)
    }

    /// The destination `out` names; a job is queued only once it parses (`enqueue`, the service).
    public var destination: OutputDestination {
        get throws(OutputRefusal) { try OutputDestination(parsing: out) }
    }

    /// Absolute, standardised paths and lower-cased option words, so that `./a/../cap` and `cap` match.
    public func normalised(relativeTo directory: String = FileManager.default.currentDirectoryPath) -> JobSpec {
        JobSpec(capture: ComposeOptions.absolute(capture, relativeTo: directory),
                out: ComposeOptions.absolute(out, relativeTo: directory),
                options: options.normalised(relativeTo: directory))
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

    /// Arguments after `compose`, with `--out` pointing at `outDirectory` (the attempt's staging
    /// folder, which is new: `--overwrite` is for the worker's publish, not the child's).
    public func composeArguments(outDirectory: String) -> [String] {
        var options = self.options
        options.overwrite = nil
        return [capture, "--out", outDirectory] + options.arguments
    }
}
