import Foundation
import Testing
@testable import StageMixPublishing
import StageMixTestSupport

/// A segment is uploaded once the muxer has moved on to the next one, never while it may still grow.
struct SegmentWatcherTests {
    @Test func aSegmentIsFinishedOnceALaterOneIsBesideIt() throws {
        let root = ScratchDirectory("segments").url
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for folder in ["hls/1280x720", "hls/640x360", "hls/audio"] { try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true) }
        for file in ["hls/1280x720/segment_00000.ts", "hls/1280x720/segment_00001.ts", "hls/1280x720/segment_00002.ts",
                     "hls/640x360/segment_00000.ts", "hls/audio/segment_00000.m4s", "hls/audio/segment_00001.m4s",
                     "hls/1280x720/index.m3u8", "report.json"] {
            fm.createFile(atPath: root.appendingPathComponent(file).path, contents: Data("x".utf8))
        }
        #expect(SegmentWatcher.finishedSegments(in: root) == [
            "hls/1280x720/segment_00000.ts", "hls/1280x720/segment_00001.ts", "hls/audio/segment_00000.m4s",
        ])
        #expect(SegmentWatcher.segmentNumber("segment_00012.ts") == 12)
        #expect(SegmentWatcher.segmentNumber("index.m3u8") == nil && SegmentWatcher.segmentNumber("init.mp4") == nil)
    }

    @Test func itUploadsFinishedSegmentsAsTheyAppearAndSaysWhichWentUp() throws {
        let root = ScratchDirectory("segments").url
        defer { try? FileManager.default.removeItem(at: root) }
        let uploaded = NSMutableArray()
        let watcher = SegmentWatcher(staging: root, interval: 0.05) { relative, _ in uploaded.add(relative) }
        watcher.start()
        for n in 0..<4 {
            FileManager.default.createFile(atPath: root.appendingPathComponent(String(format: "segment_%05d.ts", n)).path, contents: Data())
            Thread.sleep(forTimeInterval: 0.2)
        }
        let sent = watcher.stop()
        #expect(Set(sent.keys) == ["segment_00000.ts", "segment_00001.ts", "segment_00002.ts"])
        #expect(uploaded.count == 3, "each once")
        #expect(watcher.stop() == sent && watcher.failure == nil, "stopping again returns at once")
    }

    /// A segment written again under its name (a followed run whose join started over) is another file: it goes up again.
    @Test func aSegmentWrittenAgainGoesUpAgain() throws {
        let root = ScratchDirectory("segments").url
        defer { try? FileManager.default.removeItem(at: root) }
        let uploaded = NSMutableArray()
        let watcher = SegmentWatcher(staging: root, interval: 0.05) { relative, _ in uploaded.add(relative) }
        watcher.start()
        for n in 0..<2 {
            FileManager.default.createFile(atPath: root.appendingPathComponent(String(format: "segment_%05d.ts", n)).path, contents: Data("first".utf8))
        }
        Thread.sleep(forTimeInterval: 0.3)
        try FileManager.default.removeItem(at: root.appendingPathComponent("segment_00000.ts"))
        FileManager.default.createFile(atPath: root.appendingPathComponent("segment_00000.ts").path, contents: Data("second, longer".utf8))
        Thread.sleep(forTimeInterval: 0.3)
        watcher.stop()
        #expect(uploaded.filter { $0 as? String == "segment_00000.ts" }.count == 2, "\(uploaded)")
    }

    @Test func aFailedUploadStopsTheWatcherAndIsToldWithWhatWentUpBefore() throws {
        let root = ScratchDirectory("segments").url
        defer { try? FileManager.default.removeItem(at: root) }
        struct Refused: Error {}
        let watcher = SegmentWatcher(staging: root, interval: 0.05) { relative, _ in
            if relative == "segment_00001.ts" { throw Refused() }
        }
        watcher.start()
        for n in 0..<3 {
            FileManager.default.createFile(atPath: root.appendingPathComponent(String(format: "segment_%05d.ts", n)).path, contents: Data())
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(Set(watcher.stop().keys) == ["segment_00000.ts"])
        #expect(watcher.failure is Refused)
        #expect(Set(watcher.stop().keys) == ["segment_00000.ts"], "and again, without waiting")
    }
}
