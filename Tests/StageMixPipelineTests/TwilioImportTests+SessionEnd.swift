import Foundation
import Testing
import StageMixTestSupport
import StageMixCapture

extension TwilioImportTests {
    /// Twilio gives a recording's `duration` in whole seconds: a 4.6 s recording reads 5. The session ends
    /// where the room ended (`end_time`) and, without it, where the media really ends; its tracks end where
    /// their media ends (a 15 fps video's last frame lasting 1/15 s, not the 66 ms Matroska writes, and the
    /// Opus padding trimmed); none of them 0.4 s later.
    @Test func theSessionEndsWhereTheRoomAndItsMediaEndNotAtARoundedDuration() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let room = root.appendingPathComponent("room")
        try FileManager.default.createDirectory(at: room, withIntermediateDirectories: true)
        func path(_ name: String) -> String { room.appendingPathComponent(name).path }
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc2=size=320x180:rate=15", "-t", "4.6", "-c:v", "libvpx", "-deadline", "realtime",
                            "-cpu-used", "8", "-b:v", "200k", path("RT00000000000000000000000000000d01.mkv")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "4.6", "-c:a", "libopus",
                            path("RT00000000000000000000000000000d02.mka")])
        let dana = "PA0000000000000000000000000000000d"
        try ("{\"recordings\": [" + [("d01", "video", "VP8", "mkv", "dana-cam"), ("d02", "audio", "opus", "mka", "dana-mic")].map { sid, kind, codec, container, name in
            #"{"sid": "RT00000000000000000000000000000\#(sid)", "source_sid": "MT\#(sid)", "type": "\#(kind)", "codec": "\#(codec)", "container_format": "\#(container)", "duration": 5, "offset": 2000, "track_name": "\#(name)", "status": "completed", "grouping_sids": {"participant_sid": "\#(dana)"}}"#
        }.joined(separator: ",") + "]}").write(toFile: path("recordings.json"), atomically: true, encoding: .utf8)

        func importedEnds(room roomEnd: String, participant participantEnd: String) throws -> [String] {
            try #"{"sid": "RM00000000000000000000000000000003", "date_created": "2026-11-20T18:00:00Z", "end_time": \#(roomEnd)}"#
                .write(toFile: path("room.json"), atomically: true, encoding: .utf8)
            try #"{"participants": [{"sid": "\#(dana)", "identity": "dana", "start_time": "2026-11-20T18:00:00Z", "end_time": \#(participantEnd)}]}"#
                .write(toFile: path("participants.json"), atomically: true, encoding: .utf8)
            let capture = root.appendingPathComponent("capture")
            let imported = try CLI.run(["import", "twilio", room.path, "--out", capture.path, "--overwrite"])
            #expect(imported.status == 0, "\(imported.stderr)")
            let manifest = try JSONDecoder().decode(CaptureManifest.self, from: Data(contentsOf: capture.appendingPathComponent("session.json")))
            return manifest.events.filter { ["track.unpublished", "participant.left", "session.ended"].contains($0.type) }
                .map { "\($0.type) \($0.trackId ?? $0.participantId ?? "")@\($0.atMs)" }
        }
        let ends = ["track.unpublished RT00000000000000000000000000000d01@4600", "track.unpublished RT00000000000000000000000000000d02@4600",
                    "participant.left dana@4600", "session.ended @4600"]
        let withTheRoomsEnd = try importedEnds(room: #""2026-11-20T18:00:04.600Z""#, participant: #""2026-11-20T18:00:04.600Z""#)
        #expect(withTheRoomsEnd == ends)
        // Without the room's end or the participant's, the media's own end.
        let withoutIt = try importedEnds(room: "null", participant: "null")
        #expect(withoutIt == ends)
    }
}
