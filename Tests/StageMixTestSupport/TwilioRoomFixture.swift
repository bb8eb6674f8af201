public import Foundation

/// A Twilio room as Twilio's REST API and recordings leave it, made by the ffmpeg CLI: `room.json`,
/// `participants.json`, `recordings.json`, the status callbacks as JSON lines, and `<RT...>.mkv/.mka`
/// files. Alice from the start (VP8 + Opus 440 Hz, 6 s; her microphone off from 1 s to 2 s in the
/// callbacks, out of SequenceNumber order); Bob from 2.5 s (H.264 with B-frames + PCMU 660 Hz, 3 s, files
/// starting at 2.5 s); Bob's screen share recording failed and has no file.
public enum TwilioRoomFixture {
    public static let roomSid = "RM00000000000000000000000000000001"
    public static let alice = "PA0000000000000000000000000000000a", bob = "PA0000000000000000000000000000000b"

    /// Alice from the start (VP8 + Opus 440 Hz, 6 s); Bob from 2.5 s (H.264 + PCMU 660 Hz, 3 s, files starting at 2.5 s).
    public static func room(in root: URL) throws -> URL {
        let room = root.appendingPathComponent("room")
        try FileManager.default.createDirectory(at: room, withIntermediateDirectories: true)
        func file(_ name: String) -> String { room.appendingPathComponent(name).path }
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc2=size=640x360:rate=30", "-t", "6", "-c:v", "libvpx", "-deadline", "realtime",
                            "-cpu-used", "8", "-b:v", "300k", file("RT0000000000000000000000000000a001.mkv")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "6", "-c:a", "libopus",
                            file("RT0000000000000000000000000000a002.mka")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "testsrc=size=320x240:rate=15", "-t", "3", "-c:v", "libx264", "-bf", "2", "-preset", "ultrafast",
                            "-pix_fmt", "yuv420p", "-output_ts_offset", "2.5", file("RT0000000000000000000000000000b001.mkv")])
        try FFmpegTool.run(["-f", "lavfi", "-i", "sine=frequency=660:sample_rate=8000", "-t", "3", "-c:a", "pcm_mulaw",
                            "-output_ts_offset", "2.5", file("RT0000000000000000000000000000b002.mka")])
        try #"""
            {"sid": "\#(roomSid)", "unique_name": "panel-17", "status": "completed",
             "date_created": "2026-11-20T18:00:00Z", "end_time": "2026-11-20T18:00:07Z", "duration": 7}
            """#.write(to: room.appendingPathComponent("room.json"), atomically: true, encoding: .utf8)
        try #"""
            {"participants": [
              {"sid": "\#(alice)", "identity": "alice", "start_time": "2026-11-20T18:00:00Z", "end_time": "2026-11-20T18:00:07Z"},
              {"sid": "\#(bob)", "identity": "bob", "start_time": "2026-11-20T18:00:02.400Z", "end_time": "2026-11-20T18:00:06Z"}],
             "meta": {"page": 0, "page_size": 50}}
            """#.write(to: room.appendingPathComponent("participants.json"), atomically: true, encoding: .utf8)
        func recording(_ sid: String, _ source: String, _ type: String, _ codec: String, _ container: String, _ duration: Int,
                       _ name: String, _ participant: String, status: String = "completed") -> String {
            #"{"sid": "\#(sid)", "source_sid": "\#(source)", "type": "\#(type)", "codec": "\#(codec)", "container_format": "\#(container)", "#
                + #""duration": \#(duration), "offset": 10170342040, "track_name": "\#(name)", "status": "\#(status)", "#
                + #""grouping_sids": {"room_sid": "\#(roomSid)", "participant_sid": "\#(participant)"}}"#
        }
        try ("{\"recordings\": [" + [
            recording("RT0000000000000000000000000000a001", "MTa1", "video", "VP8", "mkv", 6, "alice-cam", alice),
            recording("RT0000000000000000000000000000a002", "MTa2", "audio", "opus", "mka", 6, "alice-mic", alice),
            recording("RT0000000000000000000000000000b001", "MTb1", "video", "h264", "mkv", 3, "bob-cam", bob),
            recording("RT0000000000000000000000000000b002", "MTb2", "audio", "PCMU", "mka", 3, "bob-mic", bob),
            recording("RT0000000000000000000000000000b003", "MTb3", "video", "VP8", "mkv", 1, "screen-bob", bob, status: "failed"),
        ].joined(separator: ",\n") + "]}").write(to: room.appendingPathComponent("recordings.json"), atomically: true, encoding: .utf8)
        // Alice's microphone off from 1 s to 2 s; the lines are out of SequenceNumber order, as callbacks arrive.
        try [#"{"StatusCallbackEvent": "track-enabled", "TrackSid": "MTa2", "Timestamp": "2026-11-20T18:00:02Z", "SequenceNumber": "3"}"#,
             #"{"StatusCallbackEvent": "track-disabled", "TrackSid": "MTa2", "Timestamp": "2026-11-20T18:00:01Z", "SequenceNumber": "7"}"#,
             #"{"StatusCallbackEvent": "participant-connected", "ParticipantSid": "\#(bob)", "Timestamp": "2026-11-20T18:00:02.4Z"}"#]
            .joined(separator: "\n").write(to: room.appendingPathComponent("callbacks.jsonl"), atomically: true, encoding: .utf8)
        return room
    }
}
