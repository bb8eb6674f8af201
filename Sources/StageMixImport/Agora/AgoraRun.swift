import Foundation
import StageMixCapture

/// Slices of one stream that follow one another without a gap (or, for lost slices, lost ones that
/// follow one another): one track of the capture, published while they last. A gap between runs
/// (the user stopped sending, left, or the recorder failed over) is a gap in the track: it is
/// unpublished there, so the placeholder shows, not a frozen picture.
struct AgoraRun: Sendable {
    var slices: [AgoraSlice]

    var isLost: Bool { slices[0].lost != nil }
    var first: AgoraSlice { slices[0] }
    var last: AgoraSlice { slices[slices.count - 1] }
    var rotation: Int { first.rotation }

    /// The runs of a stream's slices, in time order.
    static func runs(of slices: [AgoraSlice], reference kind: TrackKind) -> [AgoraRun] {
        var runs: [AgoraRun] = []
        for slice in slices.sorted(by: { ($0.startMs, $0.name) < ($1.startMs, $1.name) }) {
            if var run = runs.last {
                let joins = run.isLost ? slice.lost != nil : run.last.isContinued(by: slice, reference: kind)
                if joins {
                    run.slices.append(slice)
                    runs[runs.count - 1] = run
                    continue
                }
            }
            runs.append(AgoraRun(slices: [slice]))
        }
        return runs
    }

    /// Where `kind`'s first sample falls (Unix ms): the first slice's named start, moved by how much
    /// later this kind starts in the file than the file's earliest stream (raw mode's one file).
    func mediaStartMs(_ kind: TrackKind) -> Int64 {
        guard let own = first.streams[kind]?.firstMs, let earliest = first.streams.values.map(\.firstMs).min() else { return first.startMs }
        return first.startMs + Int64(own - earliest)
    }

    /// Where `kind` ends (Unix ms): its start plus the run's length by its own timestamps (the slices
    /// continue one another's), or for a lost run by the names and the playlist's durations.
    func endMs(_ kind: TrackKind) -> Int64 {
        if let firstMs = first.streams[kind]?.firstMs, let endMs = last.streams[kind]?.endMs {
            return mediaStartMs(kind) + Int64(endMs - firstMs)
        }
        return last.startMs + Int64(last.listedMs ?? 0)
    }
}
