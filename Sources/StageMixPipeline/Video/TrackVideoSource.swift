import Foundation
import StageMixCapture
import StageMixMedia
import StageMixTime

/// One subscribed video track as the compositor sees it: pictures at the planned layer,
/// switching layers the way an SFU does, at the new layer's next keyframe.
///
/// A layer whose file cannot be opened, ends before the plan does, cannot be read on, or stays
/// undecodable hands over to the closest readable layer from that instant. Every frame that is not
/// the planned layer's own picture is noted in the ledger, with the cause and the stand-in.
final class TrackVideoSource {
    let track: Track
    private let capture: Capture
    private let ledger: LossLedger
    private let frameSeconds: Double
    private var active: (quality: LayerQuality, reader: LayerReader)?
    private var incoming: (quality: LayerQuality, reader: LayerReader, switchAt: Double)?
    /// Files that failed, why and from when; not tried again.
    private(set) var failures: [String: (error: MediaError, cause: MediaLoss.Cause, at: Double)] = [:]

    private let counter: DecodeCounter

    /// Pictures this late past a layer's last one mean the file was cut short, not a slow source.
    static let truncationTolerance = 0.25
    /// A layer whose pictures stay wrong this long is given up for the closest readable one (not for a
    /// gap in its timestamps: the other layers of one recording share it).
    static let troubleLimit = 2.0

    init(track: Track, capture: Capture, counter: DecodeCounter, ledger: LossLedger, frameSeconds: Double) {
        self.track = track
        self.capture = capture
        self.counter = counter
        self.ledger = ledger
        self.frameSeconds = frameSeconds
    }

    /// The layer currently delivering pictures.
    var activeQuality: LayerQuality? { active?.quality }

    /// A layer the source could not switch to (no keyframe left in it); not tried again until the plan asks for another.
    private var unreachable: LayerQuality?

    /// The picture at session time `t` for a tile subscribed at `planned`.
    ///
    /// When the planned layer's file cannot be read, the closest readable layer stands in (larger ones
    /// first, as scaling down looks better than up), as an SFU forwards the layers it has.
    func frame(layer planned: LayerQuality, at t: Double) -> VideoFrame? {
        let frame = picture(layer: planned, at: t)
        noteLoss(planned: planned, at: t, showing: frame != nil)
        return frame
    }

    private func picture(layer planned: LayerQuality, at t: Double) -> VideoFrame? {
        if active == nil {
            // A new subscription starts from the layer's latest keyframe, as an SFU answers with one.
            guard let (quality, reader) = openReadable(planned, at: t) else { return nil }
            do {
                try reader.seek(to: t)
            } catch {
                fail(reader.file, error, at: t)
                return picture(layer: planned, at: t)
            }
            active = (quality, reader)
            incoming = nil
        } else if let wanted = readable(planned), wanted != active?.quality, wanted != incoming?.quality,
                  wanted != unreachable {
            incoming = nil
            if let (quality, reader) = openReadable(planned, at: t), quality != active?.quality {
                if let at = try? reader.positionAtKeyframe(atOrAfter: t) {
                    incoming = (quality, reader, at)
                } else {
                    unreachable = quality
                }
            }
        } else if readable(planned) == active?.quality {
            incoming = nil
            unreachable = nil
        }
        if let next = incoming, t >= next.switchAt - 0.0005 {
            active = (next.quality, next.reader)
            incoming = nil
        }
        guard let reader = active?.reader else { return nil }
        do {
            let frame = try reader.frame(at: t)
            if let end = reader.endTime, t > end + Self.truncationTolerance {
                // A file that ran out while its pictures were already wrong lost them to that, not to the cut.
                if let trouble = reader.trouble {
                    fail(reader.file, Self.error(trouble), cause: trouble.cause, at: trouble.since)
                } else {
                    fail(reader.file, MediaError(.endOfFile, "the file ends at \(String(format: "%.3f", end)) s"),
                         cause: .truncated, at: end)
                }
            } else if let trouble = reader.trouble, trouble.cause == .tooLarge
                        || (trouble.cause != .timestampGap && t - trouble.since > Self.troubleLimit) {
                // A forged picture size says the file cannot be trusted: it hands over at once.
                fail(reader.file, Self.error(trouble), cause: trouble.cause, at: trouble.since)
            } else if frame != nil {
                standIn = nil
                standingIn = nil
                return frame
            } else {
                // No picture yet (a layer starting late) or any more: another layer may have one.
                return standInFrame(for: planned, at: t)
            }
        } catch {
            fail(reader.file, error, at: t)
        }
        // The failed layer hands over from this instant.
        return picture(layer: planned, at: t)
    }

    /// A reader's lasting trouble as the error `lostMedia` names the file with.
    private static func error(_ trouble: (cause: MediaLoss.Cause, since: Double, detail: String)) -> MediaError {
        MediaError(trouble.cause == .tooLarge ? .tooLarge : .decodeFailed, trouble.detail)
    }

    private func fail(_ file: String, _ error: MediaError, cause: MediaLoss.Cause? = nil, at time: Double) {
        failures[file] = (error, cause ?? MediaLoss.Cause(failure: error), time)
        if active?.reader.file == file { active = nil }
        if incoming?.reader.file == file { incoming = nil }
    }

    /// Notes this frame as lost when the planned layer's picture is not what shows.
    private func noteLoss(planned: LayerQuality, at t: Double, showing: Bool) {
        guard let layer = track.layer(planned) else { return }
        let fromMs = MediaTime.ms(seconds: t), toMs = MediaTime.ms(seconds: t + frameSeconds)
        let standIn = showing ? active?.quality : nil
        if let failure = failures[layer.file] {
            // From the instant it failed (a file cut short: from its last picture), then frame by frame.
            let since = min(fromMs, MediaTime.ms(holdingSeconds: failure.at))
            ledger.note(failure.cause, trackId: track.id, layer: planned, file: layer.file, fromMs: max(0, since),
                        toMs: toMs, standIn: standIn == planned ? nil : standIn, detail: failure.error.description)
        } else if active?.quality == planned, let trouble = active?.reader.trouble {
            ledger.note(trouble.cause, trackId: track.id, layer: planned, file: layer.file, fromMs: fromMs,
                        toMs: toMs, detail: trouble.detail)
        }
    }

    /// Another layer reading this track while the active one has no picture yet (or any more).
    private var standIn: (quality: LayerQuality, reader: LayerReader)?
    /// The layer that stood in for the last picture handed out, if one did; the compositor reports it.
    private(set) var standingIn: LayerQuality?
    /// Layers tried as stand-ins that had nothing at their time: not opened again until after this.
    private var standInTriedAt: [LayerQuality: Double] = [:]

    /// The best other layer with a picture at `t`: larger ones first, then smaller, as `readable` orders them.
    private func standInFrame(for planned: LayerQuality, at t: Double) -> VideoFrame? {
        let others = track.layers.map(\.quality).filter { $0 != active?.quality }
        let ordered = others.filter { $0 > planned }.sorted() + others.filter { $0 < planned }.sorted(by: >)
        for quality in ordered {
            if let tried = standInTriedAt[quality], t - tried < 1 { continue }
            let reader: LayerReader
            if let current = standIn, current.quality == quality {
                reader = current.reader
            } else {
                guard let opened = open(quality, at: t) else { continue }
                try? opened.seek(to: t)
                reader = opened
            }
            guard let picture = try? reader.frame(at: t) else {
                standInTriedAt[quality] = t
                if standIn?.quality == quality { standIn = nil }
                continue
            }
            standIn = (quality, reader)
            standingIn = quality
            return picture
        }
        standingIn = nil
        return nil
    }

    /// `planned` if its file has not failed, else the closest layer whose file has not.
    private func readable(_ planned: LayerQuality) -> LayerQuality? {
        let qualities = track.layers.map(\.quality)
        let larger = qualities.filter { $0 > planned }.sorted()
        let smaller = qualities.filter { $0 < planned }.sorted(by: >)
        return ([planned] + larger + smaller).first { quality in
            track.layer(quality).map { failures[$0.file] == nil } ?? false
        }
    }

    /// Opens the readable layer closest to `planned`, moving on past files that fail to open.
    private func openReadable(_ planned: LayerQuality, at t: Double) -> (LayerQuality, LayerReader)? {
        while let quality = readable(planned) {
            if let reader = open(quality, at: t) { return (quality, reader) }
        }
        return nil
    }

    /// The last picture shown, without reading further (a paused stream's held frame).
    var lastFrame: VideoFrame? { active?.reader.current }

    private func open(_ quality: LayerQuality, at t: Double) -> LayerReader? {
        guard let layer = track.layer(quality), failures[layer.file] == nil else { return nil }
        do {
            return try LayerReader(media: capture.media(layer.file), file: layer.file, width: layer.width, height: layer.height,
                                   startOffsetSeconds: MediaTime.seconds(ms: track.startOffsetMs(of: layer)), counter: counter)
        } catch {
            failures[layer.file] = (error, MediaLoss.Cause(failure: error), t)
            return nil
        }
    }
}
