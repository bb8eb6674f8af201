public import Foundation
public import StageMixPlan
public import StageMixOptions

/// The session's audio of a chunked composition as work of its own, beside the chunks (docs/chunks.md,
/// "Audio"): what the process that does it (`stagemix compose-chunk --audio`) needs to run the loudness
/// pass, mix the whole session and AAC-encode it exactly as a whole run does, and where it writes the
/// packets (``AudioPacketFile``) and its result for the join to remux.
public struct SessionAudioJob: Sendable, Codable {
    /// The capture as its sources find it: a folder's path or an `s3://` URL.
    public var capture: String
    public var options: ComposeOptions
    public var plan: CompositionPlan
    /// The folder it writes its packets and its result into.
    public var work: String

    public init(capture: String, options: ComposeOptions, plan: CompositionPlan, work: String) {
        self.capture = capture
        self.options = options
        self.plan = plan
        self.work = work
    }

    public var packetsFile: URL { Self.packetsFile(in: URL(fileURLWithPath: work)) }
    public var resultFile: URL { Self.resultFile(in: URL(fileURLWithPath: work)) }
    public var jobFile: URL { URL(fileURLWithPath: work).appendingPathComponent("audio.job.json") }

    /// The AAC packets in the folder they were written in.
    public static func packetsFile(in folder: URL) -> URL { folder.appendingPathComponent("audio.packets") }
    /// The result in the folder it was written in: written last, so its presence says the packets are whole.
    public static func resultFile(in folder: URL) -> URL { folder.appendingPathComponent("audio.result.json") }

    public func write(to url: URL) throws { try JSONEncoder().encode(self).write(to: url) }
    public static func read(from url: URL) throws -> SessionAudioJob {
        try JSONDecoder().decode(SessionAudioJob.self, from: Data(contentsOf: url))
    }
}
