/// Puts a recording's RTP packets back in sending order and on one media clock: orders them by
/// extended sequence number within a bounded window (a missing packet is waited for until `window`
/// packets wait or a packet arrives `maxWaitMs` after the oldest waiting one, whichever comes first),
/// drops duplicates and packets that come after the window moved on, unwraps 32-bit timestamps, and
/// starts each new SSRC at its arrival time. The wait is counted in arrival times read from the file,
/// so a recording read whole and one read while Janus writes it give the same packets.
///
/// A value-type state machine: `push` a packet, take what is ready; `finish` at the end.
struct RTPSequencer {
    let clockRate: Int64
    /// How many packets may wait for a missing one before it is given up.
    let window: Int
    /// How long (arrival ms) a missing packet is waited for: a real-time sender's packet later than
    /// this is of no use, and a recording read while written cannot be whole past the wait.
    let maxWaitMs: Int64

    private var ssrc: UInt32?
    private var highest: Int64 = 0
    /// The next sequence number to hand out; nil until the window first fills or closes.
    private var next: Int64?
    /// Waiting packets, sorted by extended sequence number.
    private var waiting: [(index: Int64, record: (RTPPacket, Int64))] = []
    /// The unwrapping reference: an RTP time and its ticks.
    private var referenceTimestamp: UInt32 = 0
    private var referenceTicks: Int64 = 0
    private var lastTicks: Int64?
    private var newSource = false
    /// The source before the current one, and until when (arrival ms) its stragglers are dropped, not
    /// taken for a switch back.
    private var retired: (ssrc: UInt32, untilMs: Int64)?
    /// The last packets handed out, by extended sequence number, so a repeat that comes after its
    /// original was handed on is told from a packet that came too late.
    private var handedOut: [Int64] = []
    private var handedOutNext = 0
    /// Packets dropped as repeats or as too late.
    private(set) var duplicates = 0
    private(set) var late = 0

    /// Whether packets wait for a missing one (or for the window to fill, at the start).
    var isWaiting: Bool { !waiting.isEmpty }
    /// The media time of the last media packet handed out: a packet still missing comes after it.
    var lastEmittedTicks: Int64? { lastTicks }

    init(clockRate: Int, window: Int = 200, maxWaitMs: Int64 = 1000) {
        self.clockRate = Int64(clockRate)
        self.window = window
        self.maxWaitMs = maxWaitMs
    }

    mutating func push(_ packet: RTPPacket, arrivalMs: Int64) -> [SequencedPacket] {
        var ready: [SequencedPacket] = []
        if packet.ssrc != ssrc {
            if let retired, packet.ssrc == retired.ssrc, arrivalMs <= retired.untilMs {
                late += 1
                return ready
            }
            if let old = ssrc {
                retired = (old, arrivalMs + 1000)
                ready += drain()
                // A new source's timestamps have their own origin: its first packet is placed when it arrived.
                referenceTicks = max(arrivalMs * clockRate / 1000, (lastTicks ?? 0) + 1)
                newSource = true
            }
            ssrc = packet.ssrc
            highest = Int64(packet.sequenceNumber)
            next = nil
            referenceTimestamp = packet.timestamp
        }
        let delta = Int64(Int16(bitPattern: packet.sequenceNumber &- UInt16(truncatingIfNeeded: highest)))
        let index = highest + delta
        highest = max(highest, index)
        if let next, index < next {
            if handedOut.contains(index) { duplicates += 1 } else { late += 1 }
            return ready
        }
        let slot = insertionPoint(index)
        if slot < waiting.count, waiting[slot].index == index {
            duplicates += 1
            return ready
        }
        waiting.insert((index, (packet, arrivalMs)), at: slot)
        while let first = waiting.first, first.index == next || waiting.count > window || arrivalMs - oldestWaitingArrival() > maxWaitMs {
            ready.append(emit(waiting.removeFirst()))
        }
        return ready
    }

    /// Everything still waiting, in order.
    mutating func finish() -> [SequencedPacket] { drain() }

    private mutating func drain() -> [SequencedPacket] {
        defer { waiting.removeAll() }
        return waiting.map { emit($0) }
    }

    private mutating func emit(_ item: (index: Int64, record: (RTPPacket, Int64))) -> SequencedPacket {
        let (packet, arrivalMs) = item.record
        let gap = next.map { item.index != $0 } ?? false
        next = item.index + 1
        if handedOut.count < window { handedOut.append(item.index) } else { handedOut[handedOutNext] = item.index }
        handedOutNext = (handedOutNext + 1) % window
        let ticks = referenceTicks + Int64(Int32(bitPattern: packet.timestamp &- referenceTimestamp))
        if !packet.isPadding {
            // Padding may carry any timestamp; only media moves the unwrapping reference.
            referenceTimestamp = packet.timestamp
            referenceTicks = ticks
            lastTicks = max(lastTicks ?? ticks, ticks)
        }
        let startsNewSource = newSource
        newSource = false
        return SequencedPacket(rtp: packet, arrivalMs: arrivalMs, ticks: ticks, gapBefore: gap || startsNewSource,
                               startsNewSource: startsNewSource)
    }

    private func oldestWaitingArrival() -> Int64 { waiting.lazy.map(\.record.1).min() ?? .max }

    private func insertionPoint(_ index: Int64) -> Int {
        if let last = waiting.last, last.index < index { return waiting.count }
        var low = 0, high = waiting.count
        while low < high {
            let mid = (low + high) / 2
            if waiting[mid].index < index { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
