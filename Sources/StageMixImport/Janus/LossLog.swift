/// Collects the stretches of a recording that could not be written, as media ticks, and reports them
/// in real time: consecutive drops for one reason make one stretch, which ends where media resumes.
struct LossLog {
    /// The header's `u`: real time of tick 0.
    let originUs: Int64
    let clockRate: Int64
    private(set) var closed: [JanusLoss] = []
    private var open: (reason: JanusLoss.Reason, from: Int64, last: Int64)?

    init(originUs: Int64, clockRate: Int) {
        self.originUs = originUs
        self.clockRate = Int64(clockRate)
    }

    func us(_ ticks: Int64) -> Int64 { originUs + ticks * 1_000_000 / clockRate }

    /// Media at `ticks` was dropped for `reason`.
    mutating func drop(_ reason: JanusLoss.Reason, at ticks: Int64) {
        if let current = open, current.reason == reason {
            open?.last = max(current.last, ticks)
            return
        }
        resume(at: ticks)
        open = (reason, ticks, ticks)
    }

    /// Media was written again at `ticks`: an open stretch ends there.
    mutating func resume(at ticks: Int64) {
        guard let current = open else { return }
        open = nil
        add(current.reason, from: current.from, to: max(ticks, current.from))
    }

    mutating func add(_ reason: JanusLoss.Reason, from: Int64, to: Int64) {
        closed.append(JanusLoss(fromUs: us(from), toUs: us(to), reason: reason))
    }

    /// All stretches; one still open ends `tail` ticks after its last drop.
    func losses(tail: Int64) -> [JanusLoss] {
        guard let current = open else { return closed }
        return closed + [JanusLoss(fromUs: us(current.from), toUs: us(current.last + tail), reason: current.reason)]
    }
}
