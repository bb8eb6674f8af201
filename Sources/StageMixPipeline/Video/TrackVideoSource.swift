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

    /// The picture at session time `t` for a tile subscribed at `layer`.
    func frame(layer: LayerQuality, at t: Double) -> VideoFrame? {
        if active == nil {
            // A new subscription starts from the layer's latest keyframe, as an SFU answers with one.
            guard let reader = open(layer) else { return nil }
            try? reader.seek(to: t)
            active = (layer, reader)
        } else if active?.quality != layer, incoming?.quality != layer {
            incoming = nil
            if let reader = open(layer), let at = try? reader.positionAtKeyframe(atOrAfter: t) {
                incoming = (layer, reader, at)
            }
        } else if active?.quality == layer {
            incoming = nil
        }
        if let next = incoming, t >= next.switchAt - 0.0005 {
            active = (next.quality, next.reader)
            incoming = nil
        }
        guard let reader = active?.reader else { return nil }
        do {
            return try reader.frame(at: t)
        } catch {
            failures[reader.file] = error
            active = nil
            return nil
        }
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
