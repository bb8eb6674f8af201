import Foundation

extension ComposeChild {
    /// The line the plan phase of a chunked composition prints on stdout, which the worker reads to
    /// queue that many chunks, and the session's audio as a job of its own beside them:
    /// `{"event":"chunks","count":10,"audio":true}` (a version before the audio job printed no `audio`).
    public struct ChunksLine: Sendable, Hashable, Codable {
        public var event = "chunks"
        public var count: Int
        public var audio: Bool?

        public init(count: Int, audio: Bool) {
            self.count = count
            self.audio = audio
        }

        public var text: String { #"{"event":"chunks","count":\#(count),"audio":\#(audio == true)}"# }

        public init?(parsing line: String) {
            guard line.first == "{", let parsed = try? JSONDecoder().decode(Self.self, from: Data(line.utf8)),
                  parsed.event == "chunks", parsed.count >= 0 else { return nil }
            self = parsed
        }
    }
}

extension ComposeChild {
    /// The folder of a chunked composition's work folder that holds chunk `index`'s files once it is done.
    public static func chunkFolderName(_ index: Int) -> String { String(format: "chunk-%05d", index) }

    /// The folder of a chunked composition's work folder that holds the session's audio files once its job is done.
    public static let audioFolderName = "audio"
}
