import StageMixCapture
import StageMixPlan

/// Where the readers of a composition note what they could not deliver. Notes may be open-ended
/// (a file that ended, a track that could not be opened: `toMs` = `.max`); `losses(in:)` cuts them to
/// the time the plan actually subscribes the track at that layer and merges what touches.
final class LossLedger {
    private var notes: [MediaLoss] = []
    /// The latest note of each kind, so per-frame notes of one stretch extend it instead of piling up.
    private struct Kind: Hashable {
        var trackId: String, layer: LayerQuality?, cause: MediaLoss.Cause, standIn: LayerQuality?
    }
    private var latest: [Kind: Int] = [:]

    /// Media that ends this close to its planned end is not called truncated: recorders stop a few
    /// packets early or late.
    static let truncationToleranceMs = 250
    /// A gap is noted from the last picture before it, which still shows for its own frame: what is left
    /// of a gap where the plan stops showing the track (a pause, an unpublish) within that frame is not a loss.
    static let gapToleranceMs = 100

    /// Every note as taken, on the session's clock and perhaps open-ended: what a chunk hands the run
    /// that joins it, which notes them again so that `losses(in:)` merges across chunk boundaries.
    var notesTaken: [MediaLoss] { notes }

    /// Takes a note another ledger took (a chunk's).
    func note(_ taken: MediaLoss) {
        note(taken.cause, trackId: taken.trackId, layer: taken.layer, file: taken.file, fromMs: taken.fromMs, toMs: taken.toMs,
             standIn: taken.standIn, detail: taken.detail)
    }

    func note(_ cause: MediaLoss.Cause, trackId: String, layer: LayerQuality?, file: String, fromMs: Int,
              toMs: Int = .max, standIn: LayerQuality? = nil, detail: String? = nil) {
        guard toMs > fromMs else { return }
        let kind = Kind(trackId: trackId, layer: layer, cause: cause, standIn: standIn)
        if let index = latest[kind], fromMs >= notes[index].fromMs, fromMs <= notes[index].toMs {
            notes[index].toMs = max(notes[index].toMs, toMs)
            return
        }
        latest[kind] = notes.count
        notes.append(MediaLoss(trackId: trackId, layer: layer, file: file, fromMs: fromMs, toMs: toMs,
                               cause: cause, standIn: standIn, detail: detail))
    }

    /// The notes, cut to where `plan` subscribes each track (audio: mixed and unmuted; video: shown live
    /// at the noted layer), merged where the same cause runs on, in track and time order.
    func losses(in plan: CompositionPlan) -> [MediaLoss] {
        var pieces: [MediaLoss] = []
        for note in notes {
            // Notes are on the session's clock, as the readers read; losses are told on the output's.
            for stretch in Self.planned(note.trackId, layer: note.layer, in: plan) {
                let from = max(note.fromMs, stretch.session.lowerBound), to = min(note.toMs, stretch.session.upperBound)
                guard from < to else { continue }
                var piece = note
                piece.fromMs = from - stretch.offsetMs
                piece.toMs = to - stretch.offsetMs
                pieces.append(piece)
            }
        }
        pieces.sort { a, b in
            (a.trackId, a.layer?.rawValue ?? "", a.cause.rawValue, a.standIn?.rawValue ?? "", a.fromMs)
                < (b.trackId, b.layer?.rawValue ?? "", b.cause.rawValue, b.standIn?.rawValue ?? "", b.fromMs)
        }
        var merged: [MediaLoss] = []
        for piece in pieces {
            if var last = merged.last, last.trackId == piece.trackId, last.layer == piece.layer,
               last.cause == piece.cause, last.standIn == piece.standIn, piece.fromMs <= last.toMs {
                last.toMs = max(last.toMs, piece.toMs)
                merged[merged.count - 1] = last
            } else {
                merged.append(piece)
            }
        }
        return merged
            .filter { $0.cause != .truncated || $0.toMs - $0.fromMs >= Self.truncationToleranceMs }
            .filter { $0.cause != .timestampGap || $0.toMs - $0.fromMs >= Self.gapToleranceMs }
            .sorted { ($0.trackId, $0.fromMs, $0.cause.rawValue) < ($1.trackId, $1.fromMs, $1.cause.rawValue) }
    }

    /// Where the plan reads `trackId` (at `layer`, or its audio when nil): stretches of session time,
    /// each with the offset from output time it is read at.
    static func planned(_ trackId: String, layer: LayerQuality?, in plan: CompositionPlan)
        -> [(session: Range<Int>, offsetMs: Int)] {
        var stretches: [(session: Range<Int>, offsetMs: Int)] = []
        for interval in plan.intervals {
            let subscribed = layer.map { quality in
                interval.tiles.contains { $0.trackId == trackId && $0.show == .video && $0.layer?.quality == quality }
            } ?? interval.audio.contains { $0.trackId == trackId && !$0.muted }
            guard subscribed else { continue }
            let offset = interval.sessionOffsetMs ?? 0
            let session = interval.sessionMs(interval.startMs)..<interval.sessionMs(interval.endMs)
            if let last = stretches.last, last.offsetMs == offset, last.session.upperBound == session.lowerBound {
                stretches[stretches.count - 1].session = last.session.lowerBound..<session.upperBound
            } else {
                stretches.append((session, offset))
            }
        }
        return stretches
    }
}
