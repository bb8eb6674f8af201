import StageMixMedia

/// Where a recording's ordered packets go: the Opus or the video writer.
protocol RecordingWriter: AnyObject {
    func write(_ packet: SequencedPacket) throws(MediaError)
    func finish() throws(MediaError) -> WrittenMedia
}

extension OpusRecordingWriter: RecordingWriter {}
extension VideoRecordingWriter: RecordingWriter {}
