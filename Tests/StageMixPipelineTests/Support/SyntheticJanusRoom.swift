import Foundation
import StageMixTestSupport

/// A Janus VideoRoom room as Janus records it, written out as time passes: each `.mjr` appears when
/// its recorder is made (`MJR00002` only), gets its header with its first packet and its packets as
/// they arrive, in 4 KiB steps as Janus's stdio buffer writes them (so a record is often cut short
/// on disk), and whole when its recorder closes; the events log gets each line of the event
/// handler's posts when its events happen. Two publishers: Alice (a test pattern, 440 Hz) publishes
/// from 0.2 s to 9 s; Bruno (green) from 1.2 s to 4.5 s and again from 5.5 s to 8.5 s, then leaves.
final class SyntheticJanusRoom: @unchecked Sendable {
    typealias Synth = SyntheticJanusRecording

    struct Recording {
        var name: String
        var createdUs: Int64
        var firstPacketUs: Int64
        var closeUs: Int64
        /// The whole file, and where it stands after the header and after each packet, with each packet's arrival.
        var bytes: [UInt8]
        var headerEnd: Int
        var packetEnds: [(arrivalUs: Int64, end: Int)]
    }

    static let t0: Int64 = 1_795_768_536_000_000
    static let alice = "1111", bruno = "2222"
    let recordings: [Recording]
    /// The event handler's posts, each a line, at the time of its newest event.
    let lines: [(us: Int64, text: String)]
    let folder: URL
    let events: URL
    private var written: [String: Int] = [:]
    private var linesWritten = 0
    var endUs: Int64 { lines.last!.us }

    static func ms(_ ms: Int) -> Int64 { t0 + Int64(ms) * 1000 }

    init(in dir: URL) throws {
        folder = dir.appendingPathComponent("recordings")
        events = dir.appendingPathComponent("janus-events.jsonl")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var recordings: [Recording] = []
        var posts: [(Int64, [String])] = []
        func event(_ atMs: Int, _ type: Int, handle: Int?, _ body: String, subtype: Int? = nil) {
            let handleText = handle.map { #","session_id":\#($0 + 1000),"handle_id":\#($0)"# } ?? ""
            let subtypeText = subtype.map { #","subtype":\#($0)"# } ?? ""
            posts.append((Self.ms(atMs), [#"{"emitter":"synthetic","type":\#(type)\#(subtypeText),"timestamp":\#(Self.ms(atMs))\#(handleText),"event":\#(body)}"#]))
        }
        func room(_ atMs: Int, handle: Int?, _ data: String) {
            event(atMs, 64, handle: handle, #"{"plugin":"janus.plugin.videoroom","data":{\#(data)}}"#)
        }
        /// One publish: configured, recorders, published, media from `startMs` + 10/70 ms to `endMs`.
        func publish(_ id: String, handle: Int, display: String, startMs: Int, endMs: Int, picture: String) throws {
            room(startMs - 100, handle: handle, #""event":"configured","room":1234,"id":\#(id),"bitrate":300000"#)
            room(startMs, handle: handle, #""event":"published","room":1234,"id":\#(id),"display":"\#(display)","streams":[{"type":"audio","mindex":0,"mid":"0","codec":"opus"},{"type":"video","mindex":1,"mid":"1","codec":"vp8"}]"#)
            let created = Self.ms(startMs - 95)
            for (kind, lagMs) in [("audio", 10), ("video", 70)] {
                let first = Self.ms(startMs + lagMs)
                let seconds = Double(endMs - 20 - startMs - lagMs) / 1000
                let packets: [SyntheticRTP]
                if kind == "audio" {
                    packets = Synth.opusRTP(try Synth.opusPackets(seconds: seconds))
                } else {
                    packets = Synth.vp8RTP(try Synth.ivfPictures(codec: "libvpx", source: picture, seconds: seconds, gop: 15, in: dir))
                }
                let header = #"{"t": "\#(kind.prefix(1))", "c": "\#(kind == "audio" ? "opus" : "vp8")", "s": \#(created + (kind == "audio" ? 2 : 3)), "u": \#(first)}"#
                let bytes = [UInt8](Synth.mjr(header: header, packets: packets))
                var ends: [(Int64, Int)] = []
                var at = 10 + header.utf8.count
                let headerEnd = at
                for p in packets {
                    at += 10 + p.bytes.count
                    ends.append((first + Int64(p.arrivalMs) * 1000, at))
                }
                recordings.append(Recording(name: "videoroom-1234-user-\(id)-\(created)-\(kind)-\(kind == "audio" ? 0 : 1).mjr", createdUs: created,
                                            firstPacketUs: first, closeUs: Self.ms(endMs - 10), bytes: bytes, headerEnd: headerEnd, packetEnds: ends))
                event(startMs + lagMs + 1, 32, handle: handle, #"{"media":"\#(kind)","mid":"\#(kind == "audio" ? 0 : 1)","receiving":true}"#, subtype: 1)
            }
        }
        room(0, handle: 9001, #""event":"joined","room":1234,"id":\#(Self.alice),"private_id":1,"display":"Alice Martin""#)
        try publish(Self.alice, handle: 9001, display: "Alice Martin", startMs: 200, endMs: 9000, picture: "testsrc2=size=320x240:rate=15")
        room(1000, handle: 9002, #""event":"joined","room":1234,"id":\#(Self.bruno),"private_id":2,"display":"Bruno Díaz""#)
        try publish(Self.bruno, handle: 9002, display: "Bruno Díaz", startMs: 1200, endMs: 4500, picture: "color=c=green:size=320x240:rate=15")
        // Janus 1.1.2 sends `unpublished` twice for one unpublish.
        room(4500, handle: nil, #""event":"unpublished","room":1234,"id":\#(Self.bruno)"#)
        room(4502, handle: nil, #""event":"unpublished","room":1234,"id":\#(Self.bruno)"#)
        try publish(Self.bruno, handle: 9002, display: "Bruno Díaz", startMs: 5500, endMs: 8500, picture: "color=c=green:size=320x240:rate=15")
        room(8500, handle: nil, #""event":"unpublished","room":1234,"id":\#(Self.bruno)"#)
        room(8512, handle: nil, #""event":"leaving","room":1234,"id":\#(Self.bruno)"#)
        room(9000, handle: nil, #""event":"unpublished","room":1234,"id":\#(Self.alice)"#)
        room(9012, handle: nil, #""event":"leaving","room":1234,"id":\#(Self.alice)"#)
        // Media statistics every half second, as Janus posts them while anyone publishes.
        for atMs in stride(from: 500, through: 9000, by: 500) {
            event(atMs, 32, handle: 9001, #"{"mid":"0","mindex":0,"media":"audio","codec":"opus","base":48000,"lost":0,"packets-received":\#(atMs / 20)}"#, subtype: 3)
        }
        // The handler groups (`grouping = true`): a line holds the events of up to 100 ms, posted when the newest happened.
        posts.sort { $0.0 < $1.0 }
        var grouped: [(us: Int64, text: String)] = []
        var batch: [String] = []
        var batchStart: Int64 = 0, batchEnd: Int64 = 0
        for (us, items) in posts {
            if !batch.isEmpty, us - batchStart >= 100_000 {
                grouped.append((batchEnd, "[" + batch.joined(separator: ",") + "]"))
                batch = []
            }
            if batch.isEmpty { batchStart = us }
            batch += items
            batchEnd = us
        }
        grouped.append((batchEnd, "[" + batch.joined(separator: ",") + "]"))
        lines = grouped
        self.recordings = recordings
    }

    /// Writes what Janus would have written by `us` (real time on the room's clock).
    func write(upTo us: Int64) throws {
        for recording in recordings where us >= recording.createdUs {
            let url = folder.appendingPathComponent(recording.name)
            var available = 8
            if us >= recording.firstPacketUs {
                available = recording.packetEnds.last(where: { $0.arrivalUs <= us })?.end ?? recording.headerEnd
            }
            // stdio writes whole buffers until the recorder closes (its fseek flushes the rest).
            let onDisk = us >= recording.closeUs ? recording.bytes.count : available / 4096 * 4096
            let already = written[recording.name] ?? -1
            if already < 0 { FileManager.default.createFile(atPath: url.path, contents: nil) }
            if onDisk > max(already, 0) {
                let handle = try FileHandle(forWritingTo: url)
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(recording.bytes[max(already, 0)..<onDisk]))
                try handle.close()
            }
            written[recording.name] = max(onDisk, max(already, 0))
        }
        if !FileManager.default.fileExists(atPath: events.path) { FileManager.default.createFile(atPath: events.path, contents: nil) }
        let due = lines[linesWritten...].prefix { $0.us <= us }
        if !due.isEmpty {
            let handle = try FileHandle(forWritingTo: events)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(due.map { $0.text + "\n" }.joined().utf8))
            try handle.close()
            linesWritten += due.count
        }
    }

    /// Plays the room out at `speed` times real time, from its start to its end (or to `stopMs`).
    func play(speed: Double, stopMs: Int? = nil) throws {
        let start = Date()
        let end = stopMs.map(Self.ms) ?? endUs
        while true {
            let now = Self.t0 + Int64(Date().timeIntervalSince(start) * speed * 1_000_000)
            try write(upTo: min(now, end))
            if now >= end { return }
            Thread.sleep(forTimeInterval: 0.03)
        }
    }
}
