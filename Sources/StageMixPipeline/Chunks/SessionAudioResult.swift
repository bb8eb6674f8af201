public import Foundation

/// What the session's audio work did (``SessionAudioEncoding``): the samples and packets it made,
/// what the loudness pass decided and the output measured, what it could not read, and its CPU.
public struct SessionAudioResult: Sendable, Codable {
    /// Samples per channel mixed, as a whole run counts them.
    public var samples: Int
    /// AAC packets in the packet file: the join checks it read them all.
    public var packets: Int
    public var loudness: LoudnessReport
    /// The whole process from its start, every thread: the loudness pass, the mix, AAC.
    public var cpuSeconds: CPUSeconds
    public var wallSeconds: Double
    public var lostMedia: [String: String]
    /// The audio's loss notes as taken (session time), for the run to merge with the chunks'.
    public var lossNotes: [MediaLoss]

    public func write(to url: URL) throws { try JSONEncoder().encode(self).write(to: url, options: .atomic) }
    public static func read(from url: URL) throws -> SessionAudioResult {
        try JSONDecoder().decode(SessionAudioResult.self, from: Data(contentsOf: url))
    }
}
