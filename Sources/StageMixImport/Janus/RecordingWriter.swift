import StageMixMedia

/// Where a recording's ordered packets go: the Opus or the video writer. While Janus is still writing
/// the recording, what has been written is flushed after each batch, and `writtenTicks` and
/// `heldTicks` say how far the file is whole.
protocol RecordingWriter: AnyObject {
    func write(_ packet: SequencedPacket) throws(MediaError)
    func finish() throws(MediaError) -> WrittenMedia
    /// Writes out what the muxer holds, so a reader of the growing file sees it.
    func flush() throws(MediaError)
    /// The first sample written, in ticks; nil before any.
    var firstWrittenTicks: Int64? { get }
    /// The end of the last sample written, in ticks.
    var writtenTicks: Int64 { get }
    /// The earliest sample taken but not yet written (a picture waiting for the next one to know
    /// its length or its end), in ticks; nil when none is.
    var heldTicks: Int64? { get }
}

extension OpusRecordingWriter: RecordingWriter {}
extension VideoRecordingWriter: RecordingWriter {}
