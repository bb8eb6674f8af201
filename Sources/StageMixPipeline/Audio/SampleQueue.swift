/// Decoded mono samples covering session samples `[start, end)`, consumed from the front.
///
/// Consuming moves an index, not the samples; the consumed prefix is dropped only once it is larger
/// than what remains, so each sample is moved at most once on average, whatever the block size.
struct SampleQueue {
    private var storage: [Float] = []
    private var head = 0
    /// Session sample of the first unconsumed sample.
    private(set) var start: Int

    init(start: Int) { self.start = start }

    var count: Int { storage.count - head }
    var end: Int { start + count }
    var isEmpty: Bool { count == 0 }
    /// Samples the queue holds room for: what it costs in memory.
    var capacity: Int { storage.capacity }

    /// Empties the queue and places its next sample at `sample`; the room is kept.
    mutating func reset(at sample: Int) {
        storage.removeAll(keepingCapacity: true)
        head = 0
        start = sample
    }

    /// Forgets the samples before session sample `sample`.
    mutating func drop(before sample: Int) {
        guard sample > start else { return }
        let n = min(count, sample - start)
        head += n
        start += n
        if isEmpty {
            reset(at: sample)
        } else if head >= 4_096, head > storage.count / 2 {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Appends `n` samples of silence (the caller bounds `n`).
    mutating func appendSilence(_ n: Int) {
        storage.append(contentsOf: repeatElement(0, count: n))
    }

    /// Appends frames `[from, frames)` of interleaved `samples`, down-mixed to mono.
    mutating func appendMono(_ samples: UnsafeBufferPointer<Float>, channels: Int, from: Int) {
        let frames = samples.count / channels
        guard from < frames else { return }
        let scale = 1 / Float(channels)
        for i in from..<frames {
            var sum: Float = 0
            for c in 0..<channels { sum += samples[i * channels + c] }
            storage.append(sum * scale)
        }
    }

    /// Adds the samples of `[from, from + out.count)` that the queue holds into `out`.
    func mix(into out: UnsafeMutableBufferPointer<Float>, from: Int) {
        let a = max(from, start), b = min(from + out.count, end)
        guard a < b else { return }
        storage.withUnsafeBufferPointer { src in
            for s in a..<b { out[s - from] += src[head + s - start] }
        }
    }
}
