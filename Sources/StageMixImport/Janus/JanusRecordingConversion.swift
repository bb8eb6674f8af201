import Foundation
import StageMixMedia

/// One Janus recording being turned into a media file, a record at a time: its RTP packets put in
/// order (``RTPSequencer``) and handed to the Opus or the video writer. A whole recording is read
/// through it once (``JanusRecordingConverter``); one Janus is still writing is fed as it grows
/// (`import janus --follow`), its file written live and flushed, and `wholeUntilTicks` says up to
/// where the file holds every sample it will ever hold.
final class JanusRecordingConversion {
    /// How many packets may wait for a missing one.
    static let reorderWindow = 200

    let header: MJRHeader
    let mjr: URL
    let clockRate: Int64
    /// The media file it writes.
    let mediaFile: URL
    private let target: any RecordingWriter
    private var sequencer: RTPSequencer
    private var unreadable = 0

    /// Writes into `directory/baseName.<ext>`; throws for a codec this reader does not convert.
    init(header: MJRHeader, mjr: URL, into directory: URL, baseName: String, live: Bool = false) throws(JanusRecordingError) {
        self.header = header
        self.mjr = mjr
        switch (header.kind, header.codec) {
        case (.audio, "opus"):
            clockRate = 48_000
            mediaFile = directory.appendingPathComponent(baseName + ".mka")
            target = OpusRecordingWriter(url: mediaFile, mjr: mjr,
                                         originUs: header.firstPacketUs, stereo: JanusRecordingConverter.stereo(fmtp: header.fmtp), live: live)
        case (.video, let name) where VideoCodecID(rawValue: name) != nil:
            let codec = VideoCodecID(rawValue: name)!
            clockRate = 90_000
            mediaFile = directory.appendingPathComponent(baseName + (codec == .h264 ? ".ts" : ".webm"))
            target = VideoRecordingWriter(codec: codec, url: mediaFile,
                                          mjr: mjr, originUs: header.firstPacketUs, live: live)
        default:
            throw JanusRecordingError(.unsupportedCodec, file: mjr,
                                      "\(header.kind.rawValue) codec \"\(header.codec)\" is not supported; skipped")
        }
        sequencer = RTPSequencer(clockRate: Int(clockRate), window: Self.reorderWindow)
    }

    /// Takes the next record of the file.
    func take(_ record: MJRReader.Record) throws(MediaError) {
        guard let packet = RTPPacket(record.bytes) else {
            unreadable += 1
            return
        }
        for ready in sequencer.push(packet, arrivalMs: record.arrivalMs) { try target.write(ready) }
    }

    /// Writes out what the muxer holds: a reader of the growing file sees every sample written so far.
    func flush() throws(MediaError) { try target.flush() }

    /// Real time of the file's first sample (the header's `u` plus its RTP time); nil before one is written.
    var firstSampleUs: Int64? { target.firstWrittenTicks.map(us) }

    /// Real time up to which the file holds every sample it will hold, as far as the packets read so
    /// far say: the end of what was written, or the first sample still held (a picture whose end is
    /// not known yet), or, while packets wait for a missing one, the last one handed out (the missing
    /// one comes after it). Nil before the first sample is written.
    var wholeUntilUs: Int64? {
        guard target.firstWrittenTicks != nil else { return nil }
        var ticks = target.heldTicks ?? target.writtenTicks
        if sequencer.isWaiting, let last = sequencer.lastEmittedTicks { ticks = min(ticks, last) }
        return us(ticks)
    }

    /// Writes what is still waiting, closes the file and says what was made of the recording.
    func finish(stoppedEarly: String?) throws(MediaError) -> JanusConvertedRecording {
        for ready in sequencer.finish() { try target.write(ready) }
        var media = try target.finish()
        let name = mjr.lastPathComponent
        if unreadable > 0 { media.warnings.append("\(name): \(unreadable) records are not RTP packets; skipped") }
        if sequencer.duplicates > 0 { media.warnings.append("\(name): \(sequencer.duplicates) repeated packets dropped") }
        if sequencer.late > 0 { media.warnings.append("\(name): \(sequencer.late) packets came too late to be put in order; dropped") }
        if let why = stoppedEarly { media.warnings.append("\(name): \(why)") }
        return JanusConvertedRecording(
            source: mjr, header: header, file: media.file,
            firstSampleUs: header.firstPacketUs + media.firstTicks * 1_000_000 / clockRate,
            durationMs: media.file == nil ? 0 : Int((media.endTicks - media.firstTicks) * 1000 / clockRate),
            width: media.width, height: media.height, losses: media.losses, warnings: media.warnings)
    }

    /// Largest picture so far (video), for a track listed before the recording ends.
    var pictureSize: (width: Int, height: Int)? { (target as? VideoRecordingWriter)?.pictureSize }

    private func us(_ ticks: Int64) -> Int64 { header.firstPacketUs + ticks * 1_000_000 / clockRate }
}
