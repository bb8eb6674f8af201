/// Where a join's audio comes from: mixed and AAC-encoded by the join itself, frame by frame beside
/// the video (a followed run, whose session's end is not known; a queued run planned by a version
/// before the audio was work of its own), or encoded by the session's audio work beside the chunks
/// and remuxed from its packet file (docs/chunks.md, "Audio").
enum JoinedAudio {
    case mixed(FrameAudio)
    case encoded(AudioPacketReader, SessionAudioResult)
}
