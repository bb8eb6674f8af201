import Foundation
import StageMixMedia
import StageMixStorage
import StageMixTime

/// Reads one audio track file and delivers its samples on the session clock, at 48 kHz.
///
/// Opus goes through libopus; anything else through libavcodec, resampled to 48 kHz with libswresample.
/// Samples are placed by packet timestamps, so gaps in the file become silence. A gap costs nothing:
/// audio decoded beyond one waits, and the queue restarts on the far side once the session gets there,
/// so memory and time depend on the session's length, never on the timestamps a file claims.
/// What cannot be heard as planned (a damaged packet, a gap, a file cut short) is noted in `ledger`.
final class AudioTrackReader {
    /// A jump in timestamps longer than this (a second) is reported as a gap (shorter ones are ordinary: Opus DTX).
    static let gapThreshold = MediaTime.sampleRate
    /// Read errors in a row after which the rest of the file is given up as unreadable.
    static let maxReadErrorsInARow = 8

    let file: String
    let trackId: String
    private let ledger: LossLedger
    private let media: MediaLocation
    private var demuxer: Demuxer
    private let stream: StreamInfo
    private var opus: OpusDecoder?
    private var other: AudioDecoder?
    /// For non-Opus audio not at 48 kHz.
    private let resampler: AudioResampler?
    private let startSample: Int
    private let firstPts: Double
    /// Decoded samples not yet consumed.
    private var queue: SampleQueue
    /// Samples decoded beyond a gap, waiting until the session reaches them.
    private var pending: (at: Int, samples: AudioSamples)?
    private var finished = false
    /// Errors the demuxer has logged that a gap has already been blamed on. Probing at open may read
    /// past damage and log it long before the packets after it come out, so an error is not tied to
    /// the packet it came with but to the next gap: that is what the dropped data left.
    private var explainedErrors = 0
    /// A file still being recorded (`compose --follow`): the end met is only where the recorder has
    /// got to, not the file's end. Set false once the session has ended.
    var growing = false
    /// The file's size when its end was met while it was growing: read again from there once it has grown.
    private var endMet: Int64?
    /// Where its samples stopped when the end was met.
    private var samplesEnd = 0

    init(media: MediaLocation, file: String, trackId: String, startOffsetMs: Int, ledger: LossLedger) throws(MediaError) {
        self.file = file
        self.trackId = trackId
        self.ledger = ledger
        self.media = media
        demuxer = try Demuxer(media)
        guard let audio = demuxer.firstStream(ofType: .audio) else {
            throw MediaError(.invalidData, "'\(media)' has no audio stream")
        }
        stream = audio
        if audio.codecName == "opus" {
            opus = try OpusDecoder(stream: audio)
            other = nil
            resampler = nil
        } else {
            opus = nil
            other = try AudioDecoder(stream: audio)
            resampler = audio.sampleRate == MediaTime.sampleRate ? nil
                : try AudioResampler(inputRate: audio.sampleRate, inputChannels: max(1, audio.channels))
        }
        startSample = MediaTime.samples(ms: startOffsetMs)
        firstPts = Double(audio.startTime ?? 0) * audio.timeBase.doubleValue
        queue = SampleQueue(start: startSample)
    }

    /// Samples the reader holds room for (decoded, not yet mixed): bounded by a block and a packet.
    var bufferedCapacity: Int { queue.capacity + (pending?.samples.interleaved.count ?? 0) }

    /// Adds this track's samples for session samples `[start, start + out.count)` into `out` (mono).
    func mix(into out: UnsafeMutableBufferPointer<Float>, from start: Int) throws(MediaError) {
        let end = start + out.count
        if let size = endMet {
            // The end met while the file grew: opened again once it has grown (a demuxer that met its end stays there).
            if Self.size(of: media) != size {
                // From where its samples stopped, so a gap after them is seen and told as a whole run tells it.
                try reopen(at: samplesEnd)
                while !finished, endMet == nil, pending == nil, queue.end < start { try decodeMore() }
            } else if !growing {
                endMet = nil
                finished = true
                note(.truncated, from: pending.map { $0.at + $0.samples.frameCount } ?? queue.end, to: nil, "the file ends here")
            }
        }
        // A jump ahead (the track heard again after a while) seeks; a finished file has nothing ahead.
        if !finished, start > (pending?.at ?? queue.end) + Self.gapThreshold {
            try seek(toSample: start)
        }
        queue.drop(before: start)
        while true {
            takePending(before: end)
            guard !finished, endMet == nil, pending == nil, queue.end < end else { break }
            try decodeMore()
        }
        queue.mix(into: out, from: start)
    }

    /// Moves the samples waiting beyond a gap into the queue once nothing before them is left to mix,
    /// or once they are due before `end` (the silence between is then shorter than one block).
    private func takePending(before end: Int) {
        guard let waiting = pending else { return }
        if queue.isEmpty {
            queue.reset(at: waiting.at)
        } else if waiting.at < end {
            queue.appendSilence(waiting.at - queue.end)
        } else {
            return
        }
        pending = nil
        append(waiting.samples, at: waiting.at)
    }

    private func seek(toSample sample: Int) throws(MediaError) {
        let seconds = MediaTime.seconds(samples: sample - startSample) + firstPts
        try demuxer.seek(toSeconds: max(0, seconds), streamIndex: stream.index)
        opus?.reset()
        queue.reset(at: sample)
        pending = nil
        finished = false
    }

    /// A local file's size (nil for an object, or when it cannot be read).
    static func size(of media: MediaLocation) -> Int64? {
        guard case .file(let url) = media else { return nil }
        var info = stat()
        return stat(url.path, &info) == 0 ? Int64(info.st_size) : nil
    }

    /// Opens the file again and reads on from session sample `sample`.
    private func reopen(at sample: Int) throws(MediaError) {
        endMet = nil
        demuxer = try Demuxer(media)
        if let opus { opus.reset() } else { other = try AudioDecoder(stream: stream) }
        try seek(toSample: sample)
    }

    private func decodeMore() throws(MediaError) {
        guard let packet = try nextPacket() else {
            if growing {
                endMet = Self.size(of: media) ?? 0
                samplesEnd = pending.map { $0.at + $0.samples.frameCount } ?? queue.end
                return
            }
            if let other { try? other.send(nil); drain(other, at: nil) }
            finished = true
            note(.truncated, from: pending.map { $0.at + $0.samples.frameCount } ?? queue.end, to: nil,
                 "the file ends here")
            return
        }
        let at = packet.ptsSeconds.map { startSample + MediaTime.samples(seconds: $0 - firstPts) }
        let damaged = demuxer.loggedErrors > explainedErrors
        if let opus {
            do {
                place(try opus.decode(packet), at: at, damaged: damaged)
            } catch {
                noteBadPacket(packet, at: at, .corruptPackets, error)
            }
        } else if let other {
            do {
                try other.send(packet)
            } catch {
                noteBadPacket(packet, at: at, .decodeErrors, error)
            }
            drain(other, at: at, damaged: damaged)
        }
    }

    private func noteBadPacket(_ packet: Packet, at: Int?, _ cause: MediaLoss.Cause, _ error: MediaError) {
        let from = at ?? queue.end
        let length = max(1, MediaTime.samples(seconds: Double(packet.duration) * packet.timeBase.doubleValue))
        note(cause, from: from, to: from + length, error.description)
    }

    private func drain(_ decoder: AudioDecoder, at: Int?, damaged: Bool = false) {
        var position = at
        var damaged = damaged
        while true {
            let output: DecoderOutput<AudioSamples>
            do {
                output = try decoder.receive()
            } catch {
                note(.decodeErrors, from: position ?? queue.end, to: (position ?? queue.end) + 960, error.description)
                return
            }
            guard case .frame(let decoded) = output else { return }
            guard let samples = try? resampler?.convert(decoded) ?? decoded else { continue }
            place(samples, at: position, damaged: damaged)
            damaged = false
            position = position.map { $0 + samples.frameCount }
        }
    }

    /// Places decoded samples at session sample `at` (or right after what is buffered); audio beyond a
    /// gap waits in `pending` rather than the gap being filled with silence. A gap after `damaged` data
    /// is what the damage cost; otherwise only a long one is reported.
    private func place(_ samples: AudioSamples, at: Int?, damaged: Bool) {
        guard samples.frameCount > 0 else { return }
        let end = pending.map { $0.at + $0.samples.frameCount } ?? queue.end
        var position = at ?? end
        // Opus packets carry pre-skip in their first timestamps; trust continuity when within a packet.
        if abs(position - end) < 960 { position = end }
        if position > end {
            if damaged {
                explainedErrors = demuxer.loggedErrors
                note(.corruptPackets, from: end, to: position, "the container reader dropped damaged data")
            } else if position - end > Self.gapThreshold {
                note(.timestampGap, from: end, to: position, "timestamps jump \(MediaTime.seconds(samples: position - end)) s")
            }
            if pending == nil {
                pending = (position, samples)
                return
            }
        }
        if pending != nil {
            // Only reached when the decoder hands out several frames for one packet, all beyond the gap.
            pending?.samples.interleaved += samples.interleaved
            return
        }
        append(samples, at: position)
    }

    /// Appends samples at `position`, skipping what overlaps the queue's end.
    private func append(_ samples: AudioSamples, at position: Int) {
        let skip = max(0, queue.end - position)
        samples.interleaved.withUnsafeBufferPointer { src in
            queue.appendMono(src, channels: samples.channels, from: skip)
        }
    }

    private func note(_ cause: MediaLoss.Cause, from: Int, to: Int?, _ detail: String) {
        ledger.note(cause, trackId: trackId, layer: nil, file: file, fromMs: MediaTime.ms(atSample: from),
                    toMs: to.map(MediaTime.ms(endingAtSample:)) ?? .max, detail: detail)
    }

    /// The next packet of the stream; damaged packets the demuxer cannot read are skipped and noted,
    /// until so many come in a row that the rest of the file is given up.
    private func nextPacket() throws(MediaError) -> Packet? {
        var errors = 0
        while true {
            do {
                guard let packet = try demuxer.readPacket() else { return nil }
                errors = 0
                if packet.streamIndex == stream.index { return packet }
            } catch where error.code == .invalidData && errors < Self.maxReadErrorsInARow {
                errors += 1
                note(.corruptPackets, from: queue.end, to: queue.end + 960, error.description)
            }
        }
    }
}
