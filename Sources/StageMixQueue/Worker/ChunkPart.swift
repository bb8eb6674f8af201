import StageMixOptions

/// What a chunk job of a chunked composition makes: one chunk of its video, or the session's audio
/// (loudness pass, mix, AAC), which is queued beside the chunks and run as one (docs/chunks.md, "Audio").
enum ChunkPart: Sendable, Hashable, CustomStringConvertible {
    case video(Int)
    case audio

    /// The part a chunk job's number names (``Job/sessionAudioChunk`` for the audio).
    init(chunk: Int) {
        self = chunk == Job.sessionAudioChunk ? .audio : .video(chunk)
    }

    /// Its folder in the work once done (`chunk-00003`, `audio`); in a bucket, its marker is this and `.json`.
    var folderName: String {
        switch self {
        case .video(let index): ComposeChild.chunkFolderName(index)
        case .audio: ComposeChild.audioFolderName
        }
    }

    /// What tells `stagemix compose-chunk --work W ... --into DIR` which part it makes.
    var arguments: [String] {
        switch self {
        case .video(let index): ["--index", "\(index)"]
        case .audio: ["--audio"]
        }
    }

    var description: String {
        switch self {
        case .video(let index): "chunk \(index)"
        case .audio: "the session's audio"
        }
    }
}
