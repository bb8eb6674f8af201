import Foundation

/// A copy of a real Janus recording as a worse network would have left it: some audio packets
/// lost, neighbouring packets swapped (arrived out of order) and some packets twice (retransmitted),
/// written record by record in Janus's own `.mjr` layout. The original stays as it was.
struct JanusRecordingDamage {
    var dropAudioEvery = 0
    var swapEvery = 0
    var duplicateEvery = 0

    /// What was done to one file.
    struct Done { var dropped = 0, swapped = 0, duplicated = 0 }

    func copy(_ source: URL, to target: URL) throws -> Done {
        let data = [UInt8](try Data(contentsOf: source))
        guard data.count > 10 else { try Data(data).write(to: target); return Done() }
        let headerEnd = 10 + (Int(data[8]) << 8 | Int(data[9]))
        let header = try JSONSerialization.jsonObject(with: Data(data[10..<headerEnd])) as? [String: Any]
        let audio = header?["t"] as? String == "a"
        var records: [ArraySlice<UInt8>] = []
        var offset = headerEnd
        while offset + 10 <= data.count {
            let length = Int(data[offset + 8]) << 8 | Int(data[offset + 9])
            guard offset + 10 + length <= data.count else { break }
            records.append(data[offset..<(offset + 10 + length)])
            offset += 10 + length
        }
        var done = Done()
        var kept: [ArraySlice<UInt8>] = []
        for (i, record) in records.enumerated() {
            // The first packets stay whole: the file's first frame and sample are where they were.
            if i >= 50, audio, dropAudioEvery > 0, i % dropAudioEvery == 0 { done.dropped += 1; continue }
            kept.append(record)
            if i >= 50, duplicateEvery > 0, i % duplicateEvery == 0 { kept.append(record); done.duplicated += 1 }
        }
        if swapEvery > 0 {
            for i in stride(from: 50, to: kept.count - 1, by: swapEvery) {
                kept.swapAt(i, i + 1)
                done.swapped += 1
            }
        }
        var out = Array(data[0..<headerEnd])
        for record in kept { out += record }
        try Data(out).write(to: target)
        return done
    }

    /// Every `.mjr` of `folder` into `target` (made), damaged; what was done in all.
    func copyFolder(_ folder: URL, to target: URL) throws -> Done {
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        var all = Done()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".mjr") {
            let done = try copy(folder.appendingPathComponent(name), to: target.appendingPathComponent(name))
            all.dropped += done.dropped
            all.swapped += done.swapped
            all.duplicated += done.duplicated
        }
        return all
    }
}
