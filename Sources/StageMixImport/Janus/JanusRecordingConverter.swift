public import Foundation
import StageMixMedia
import StageMixStorage

/// Turns one Janus recording (`.mjr`) into a media file a capture can reference: Opus into Matroska
/// audio (`.mka`), VP8 and VP9 into WebM, H.264 into MPEG-TS (`.ts`). Packets are streamed through a
/// bounded reorder window and a bounded picture buffer (``JanusRecordingConversion``), so any input
/// finishes in bounded memory.
public enum JanusRecordingConverter {
    /// Writes `directory/baseName.<ext>` from `mjr`. Throws for a file that is no recording, a codec
    /// this reader does not convert (the message names the file and the codec, "... not supported;
    /// skipped"), a recording that never got media, or a file that cannot be written.
    public static func convert(_ mjr: URL, into directory: URL, baseName: String) throws(JanusRecordingError) -> JanusConvertedRecording {
        var reader = try MJRReader(mjr)
        guard reader.hasPackets else {
            throw JanusRecordingError(.neverGotMedia, file: mjr, "never got media: the header is not followed by any packet")
        }
        let conversion = try JanusRecordingConversion(header: reader.header, mjr: mjr, into: directory, baseName: baseName)
        do {
            while let record = reader.next() { try conversion.take(record) }
            return try conversion.finish(stoppedEarly: reader.stoppedEarly)
        } catch {
            throw JanusRecordingError(.ioFailed, file: mjr, "cannot write \(baseName): \(error)", noSpaceLeft: NoSpaceLeft(error))
        }
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
