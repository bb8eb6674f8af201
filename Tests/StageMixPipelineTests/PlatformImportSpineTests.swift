import Foundation
import Testing
@testable import StageMixImport
import StageMixJSON
import StageMixTestSupport

/// The spine every platform's importer stands on: the folder's scan, files found by trailing path,
/// instants as platforms write them, and Agora's names read by it.
@Suite("Platform import spine")
struct PlatformImportSpineTests {
    @Test func aReferenceFindsTheFileEndingWithMostOfItsPath() {
        let index = FileIndex(directory: URL(fileURLWithPath: "/bucket"),
                              paths: ["rec/a/c.ts", "rec/b/c.ts", "other/b/c.ts", "x/d.ts"])
        let url = index.match("https://bucket.s3.amazonaws.com/prefix/rec/a/c.ts?X-Amz-Signature=1")
        #expect(url.relative == "rec/a/c.ts" && url.warning == nil)
        let key = index.match("rec/b/c.ts")
        #expect(key.relative == "rec/b/c.ts" && key.warning == nil, "rec/b/c.ts beats other/b/c.ts by one more component")
        let tie = index.match("b/c.ts")
        #expect(tie.relative == "other/b/c.ts" && tie.warning?.contains("2 files end the same way") == true, "\(tie)")
        #expect(index.match("d.ts").relative == "x/d.ts")
        #expect(index.match("e.ts").url == nil)
    }

    @Test func theScanReadsEveryDocumentAndNamesWhereOneIsNotJSON() throws {
        let root = ScratchDirectory("spine").url
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("deep/er"), withIntermediateDirectories: true)
        try #"{"a": 1}"#.write(to: root.appendingPathComponent("deep/one.json"), atomically: true, encoding: .utf8)
        try #"[{"b": 1}, {"b": 2}]"#.write(to: root.appendingPathComponent("many.json"), atomically: true, encoding: .utf8)
        try "{\"c\": 1}\n\n{\"c\": 2}\n".write(to: root.appendingPathComponent("deep/er/log.jsonl"), atomically: true, encoding: .utf8)
        try Data([0x47, 0x40]).write(to: root.appendingPathComponent("deep/er/slice.ts"))
        let folder = try PlatformFolder(scanning: root)
        #expect(folder.documents.map { "\($0.name) \($0.root)" } == ["deep/er/log.jsonl line 1 $", "deep/er/log.jsonl line 3 $", "deep/one.json $", "many.json $[0]", "many.json $[1]"])
        #expect(folder.files.paths == ["deep/er/slice.ts"])

        try "{\"c\": 1}\n{\"c\": }\n".write(to: root.appendingPathComponent("deep/er/log.jsonl"), atomically: true, encoding: .utf8)
        #expect { try PlatformFolder(scanning: root) } throws: { error in
            "\(error)".contains("deep/er/log.jsonl line 2: $")
        }
    }

    @Test func instantsAreReadAsNumbersOrDigitsAndImplausibleOnesRefused() {
        let ms: Int64 = 1_795_716_000_123
        #expect(PlatformClock.unixMs(.number(JSONNumber(text: "\(ms)", value: Double(ms), integer: Int(ms)))) == ms)
        #expect(PlatformClock.unixMs(.string("\(ms)")) == ms)
        #expect(PlatformClock.unixMs(.string("1795716000")) == nil, "seconds where milliseconds belong")
        #expect(PlatformClock.unixMs(.string("17957e6")) == nil)
        #expect(PlatformClock.isoMs(.string("2026-11-26T18:00:00.123Z")) == ms)
        #expect(AgoraFileName.utcMs("20261126180000123") == ms)
        #expect(AgoraFileName.utcMs("20261131180000123") == nil, "no 31 November")
    }

    @Test func agorasNamesSayWhoseStreamAFileIs() throws {
        let legacy = try #require(AgoraFileName("sid1_my_room__uid_s_42__uid_e_video_20261126180000123.ts"))
        #expect(legacy.sid == "sid1" && legacy.cname == "my_room" && legacy.uid == "42" && legacy.stream == .video && legacy.role == .slice)
        #expect(legacy.utcMs == 1_795_716_000_123)
        let failover = try #require(AgoraFileName("bak2_sid1_my_room__uid_s_42__uid_e_audio.m3u8"))
        #expect(failover.failover == 2 && failover.key == AgoraStreamKey(uid: "42", stream: .audio) && failover.role == .playlist)
        let backup = try #require(AgoraFileName("sid1_my_room__uid_s_42__uid_e_audio_1795716000000_3.m3u8"))
        #expect(backup.isBackup && backup.stream == .audio)
        let raw = try #require(AgoraFileName("sid1_my_room__uid_s_42__uid_e_20261126180000123_av.ts"))
        #expect(raw.stream == .combined("av") && raw.utcMs == 1_795_716_000_123)
        #expect(AgoraFileName("sid1_my_room__uid_s_42__uid_e_vp8.mpd")?.role == .dash)
        #expect(AgoraFileName("notes.ts") == nil && AgoraFileName("sid1_r__uid_s_42__uid_e_video_2026.ts") == nil)
    }

    @Test func agorasPlaylistTagsApplyToTheSlicesAfterThem() {
        let playlist = AgoraPlaylist(text: """
            #EXTM3U
            #EXT-X-AGORA-TRACK-EVENT:EVENT=START,TRACK_TYPE=video,TIME=20261126180000000
            #EXTINF:2.5
            a_20261126180000000.ts
            #EXT-X-AGORA-ROTATE:WIDTH=640,HEIGHT=360,ROTATE=270,TIME=20261126180002500
            #EXTINF:1.25,
            a_20261126180002500.ts
            #EXT-X-DISCONTINUITY
            #EXTINF:x
            a_20261126180009000.ts
            """)
        #expect(playlist.entries.map(\.durationMs) == [2_500, 1_250, nil])
        #expect(playlist.entries.map(\.rotation) == [0, 270, 270])
        #expect(playlist.entries.map(\.discontinuity) == [false, false, true])
        #expect(playlist.trackStarts.map(\.atMs) == [1_795_716_000_000] && playlist.unreadLines == 1)
    }
}
