import Foundation
import StageMixCore
import StageMixMedia

/// One subscribed video track as the compositor sees it: pictures at the planned layer,
/// switching layers the way an SFU does, at the new layer's next keyframe.
final class TrackVideoSource {
    let track: Track
    private let capture: Capture
    private var active: (quality: LayerQuality, reader: LayerReader)?
    private var incoming: (quality: LayerQuality, reader: LayerReader, switchAt: Double)?
    /// Files that failed to open or decode; reported once, then shown as placeholder.
    private(set) var failures: [String: MediaError] = [:]

    private let counter: DecodeCounter

    init(track: Track, capture: Capture, counter: DecodeCounter) {
        self.track = track
        self.capture = capture
        self.counter = counter
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
        if active == nil {
            // A new subscription starts from the layer's latest keyframe, as an SFU answers with one.
            guard let (quality, reader) = openReadable(planned) else { return nil }
            try? reader.seek(to: t)
            active = (quality, reader)
            incoming = nil
        } else if let wanted = readable(planned), wanted != active?.quality, wanted != incoming?.quality,
                  wanted != unreachable {
            incoming = nil
            if let (quality, reader) = openReadable(planned), quality != active?.quality {
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
        let picture: VideoFrame?
        do {
            picture = try reader.frame(at: t)
        } catch {
            failures[reader.file] = error
            active = nil
            return nil
        }
        if picture != nil {
            standIn = nil
            standingIn = nil
            return picture
        }
        return standInFrame(for: planned, at: t)
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
                guard let opened = open(quality) else { continue }
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
    private func openReadable(_ planned: LayerQuality) -> (LayerQuality, LayerReader)? {
        while let quality = readable(planned) {
            if let reader = open(quality) { return (quality, reader) }
        }
        return nil
    }

    /// The last picture shown, without reading further (a paused stream's held frame).
    var lastFrame: VideoFrame? { active?.reader.current }

    private func open(_ quality: LayerQuality) -> LayerReader? {
        guard let layer = track.layer(quality), failures[layer.file] == nil else { return nil }
        do {
            return try LayerReader(url: capture.mediaURL(layer.file), file: layer.file,
                                   startOffsetSeconds: Double(track.startOffsetMs(of: layer)) / 1000, counter: counter)
        } catch {
            failures[layer.file] = error
            return nil
        }
    }
}
