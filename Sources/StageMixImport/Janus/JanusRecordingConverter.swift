public import Foundation
import StageMixMedia

/// Turns one Janus recording (`.mjr`) into a media file a capture can reference: Opus into Matroska
/// audio (`.mka`), VP8 and VP9 into WebM, H.264 into MPEG-TS (`.ts`). Packets are streamed through a
/// bounded reorder window and a bounded picture buffer, so any input finishes in bounded memory.
public enum JanusRecordingConverter {
    /// How many packets may wait for a missing one.
    static let reorderWindow = 200

    /// Writes `directory/baseName.<ext>` from `mjr`. Throws for a file that is no recording, a codec
    /// this reader does not convert (the message names the file and the codec, "... not supported;
    /// skipped"), a recording that never got media, or a file that cannot be written.
    public static func convert(_ mjr: URL, into directory: URL, baseName: String) throws(JanusRecordingError) -> JanusConvertedRecording {
        var reader = try MJRReader(mjr)
        let header = reader.header
        guard reader.hasPackets else {
            throw JanusRecordingError(.neverGotMedia, file: mjr, "never got media: the header is not followed by any packet")
        }
        let media: WrittenMedia
        do {
            media = try convert(&reader, into: directory, baseName: baseName)
        } catch let error as JanusRecordingError {
            throw error
        } catch {
            throw JanusRecordingError(.ioFailed, file: mjr, "cannot write \(baseName): \(error)")
        }
        var warnings = media.warnings
        if let why = reader.stoppedEarly { warnings.append("\(mjr.lastPathComponent): \(why)") }
        let clockRate: Int64 = header.kind == .audio ? 48_000 : 90_000
        return JanusConvertedRecording(
            source: mjr, header: header, file: media.file,
            firstSampleUs: header.firstPacketUs + media.firstTicks * 1_000_000 / clockRate,
            durationMs: media.file == nil ? 0 : Int((media.endTicks - media.firstTicks) * 1000 / clockRate),
            width: media.width, height: media.height, losses: media.losses, warnings: warnings)
    }

    private static func convert(_ reader: inout MJRReader, into directory: URL, baseName: String) throws -> WrittenMedia {
        let header = reader.header
        let mjr = reader.file
        let target: any RecordingWriter
        let clockRate: Int
        switch (header.kind, header.codec) {
        case (.audio, "opus"):
            clockRate = 48_000
            target = OpusRecordingWriter(url: directory.appendingPathComponent(baseName + ".mka"), mjr: mjr,
                                         originUs: header.firstPacketUs, stereo: stereo(fmtp: header.fmtp))
        case (.video, let name) where VideoCodecID(rawValue: name) != nil:
            let codec = VideoCodecID(rawValue: name)!
            clockRate = 90_000
            target = VideoRecordingWriter(codec: codec, url: directory.appendingPathComponent(baseName + (codec == .h264 ? ".ts" : ".webm")),
                                          mjr: mjr, originUs: header.firstPacketUs)
        default:
            throw JanusRecordingError(.unsupportedCodec, file: mjr,
                                      "\(header.kind.rawValue) codec \"\(header.codec)\" is not supported; skipped")
        }
        var sequencer = RTPSequencer(clockRate: clockRate, window: reorderWindow)
        var unreadable = 0
        while let record = reader.next() {
            guard let packet = RTPPacket(record.bytes) else {
                unreadable += 1
                continue
            }
            for ready in sequencer.push(packet, arrivalMs: record.arrivalMs) { try target.write(ready) }
        }
        for ready in sequencer.finish() { try target.write(ready) }
        var media = try target.finish()
        let name = mjr.lastPathComponent
        if unreadable > 0 { media.warnings.append("\(name): \(unreadable) records are not RTP packets; skipped") }
        if sequencer.duplicates > 0 { media.warnings.append("\(name): \(sequencer.duplicates) repeated packets dropped") }
        if sequencer.late > 0 { media.warnings.append("\(name): \(sequencer.late) packets came too late to be put in order; dropped") }
        return media
    }

    /// `stereo=1` in the fmtp says stereo, `stereo=0` mono; nil when it says nothing.
    static func stereo(fmtp: String?) -> Bool? {
        guard let fmtp else { return nil }
        for pair in fmtp.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "stereo" { return parts[1] == "1" }
        }
        return nil
    }
}
