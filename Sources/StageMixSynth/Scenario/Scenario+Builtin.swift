import Foundation
import StageMixCapture

/// The built-in scenarios, by name: the committed samples and the benchmark sessions.
extension Scenario {
    public static let builtinNames = ["panel", "screenshare", "bench4", "bench16", "crowd"]

    /// The built-in scenario called `name`, or nil.
    public static func builtin(_ name: String) -> Scenario? {
        switch name {
        case "panel": return panel
        case "screenshare": return screenshare
        case "bench4": return bench(participants: 4)
        case "bench16": return bench(participants: 16)
        case "crowd": return crowd
        default: return nil
        }
    }

    /// Camera and microphone track ids for a participant key such as `maya`.
    private static func avTracks(_ key: String) -> [ScenarioTrack] {
        [ScenarioTrack(id: "TR_\(key)_cam", source: .camera), ScenarioTrack(id: "TR_\(key)_mic", source: .microphone)]
    }

    /// 30 s: host Maya on stage; Omar invited, accepts and comes on stage; Lena declines; Kai's
    /// invitation goes unanswered (it ends with the session, before the 60 s window); Maya mutes
    /// her mic, Omar's camera pauses past the grace period, Omar is forced to viewer and back, and
    /// Omar leaves before the end.
    public static var panel: Scenario {
        let maya = ScenarioParticipant.palette(0, id: "p-maya", name: "Maya", tracks: avTracks("maya"))
        let omar = ScenarioParticipant.palette(1, id: "p-omar", name: "Omar", tracks: avTracks("omar"))
        let lena = ScenarioParticipant.palette(2, id: "p-lena", name: "Lena", tracks: [])
        let kai = ScenarioParticipant.palette(3, id: "p-kai", name: "Kai", tracks: [])
        let events: [ManifestEvent] = [
            .joined(0, maya.id, role: "host"),
            .pinned(0, maya.id),
            .published(0, "TR_maya_cam"),
            .published(0, "TR_maya_mic"),
            .joined(1_000, omar.id, mode: "SIGNALLING_ONLY", role: "viewer"),
            .joined(1_500, lena.id, mode: "SIGNALLING_ONLY", role: "viewer"),
            .invite(2_000, from: maya, to: omar.id),
            .invite(2_500, from: maya, to: lena.id),
            .ack(4_000, from: omar.id, to: maya.id, "ACCEPTED"),
            .modeChanged(4_200, omar.id, mode: "SEND_AND_RECV"),
            .roleChanged(4_200, omar.id, role: "speaker", forced: false),
            .published(4_500, "TR_omar_cam"),
            .published(4_500, "TR_omar_mic"),
            .pinned(4_500, omar.id),
            .ack(5_000, from: lena.id, to: maya.id, "DECLINED"),
            .muted(8_000, "TR_maya_mic"),
            .joined(10_000, kai.id, mode: "SIGNALLING_ONLY", role: "viewer"),
            .invite(11_000, from: maya, to: kai.id),
            .unmuted(12_000, "TR_maya_mic"),
            .streamState(13_000, "TR_omar_cam", "paused"),
            .streamState(19_000, "TR_omar_cam", "active"),
            .roleChanged(21_000, omar.id, role: "viewer", forced: true),
            .roleChanged(24_000, omar.id, role: "speaker", forced: true),
            .left(27_000, omar.id),
        ]
        return Scenario(sessionId: "ls-synth-panel", durationMs: 30_000, roles: CaptureManifest.Role.stageRoles,
                        participants: [maya, omar, lena, kai], events: events)
    }

    /// 20 s: host Maya and co-host Ben on stage from 0; Maya shares her screen from 5 s to 15 s.
    public static var screenshare: Scenario {
        var maya = ScenarioParticipant.palette(0, id: "p-maya", name: "Maya", tracks: avTracks("maya"))
        maya.tracks.append(ScenarioTrack(id: "TR_maya_screen", source: .screenShare))
        let ben = ScenarioParticipant.palette(1, id: "p-ben", name: "Ben", tracks: avTracks("ben"))
        var roles = CaptureManifest.Role.stageRoles
        roles["cohost"] = CaptureManifest.Role(canPublish: ["audio", "video"])
        var events: [ManifestEvent] = []
        for (p, role) in [(maya, "host"), (ben, "cohost")] {
            events += [.joined(0, p.id, role: role), .pinned(0, p.id)]
            events += p.tracks.filter { $0.source != .screenShare }.map { .published(0, $0.id) }
        }
        events += [.published(5_000, "TR_maya_screen"), .unpublished(15_000, "TR_maya_screen")]
        return Scenario(sessionId: "ls-synth-screenshare", durationMs: 20_000, roles: roles,
                        participants: [maya, ben], events: events)
    }

    static let benchNames = ["Maya", "Omar", "Lena", "Kai", "Ben", "Ines", "Tariq", "Yuki",
                             "Ada", "Noor", "Pavel", "Sofia", "Jonas", "Mei", "Ravi", "Zoe"]

    /// 60 s, `count` participants on stage from the start, each with camera (three layers) and mic.
    /// The first is the host, the others speakers.
    public static func bench(participants count: Int) -> Scenario {
        let people = (0..<count).map { i -> ScenarioParticipant in
            let key = String(format: "%02d", i + 1)
            let name = benchNames[i % benchNames.count]
            return .palette(i, id: "p-\(key)", name: name, tracks: avTracks(key))
        }
        let events = people.enumerated().flatMap { i, p -> [ManifestEvent] in
            [.joined(0, p.id, role: i == 0 ? "host" : "speaker"), .pinned(0, p.id)]
                + p.tracks.map { .published(0, $0.id) }
        }
        return Scenario(sessionId: "ls-synth-bench\(count)", durationMs: 60_000, roles: CaptureManifest.Role.stageRoles,
                        participants: people, events: events)
    }

    /// 10 s: a crowd. 50 on stage from 0 (the first the host, the others speakers), each pinned with a
    /// camera (three layers) and a microphone; 1,000 viewers (`SIGNALLING_ONLY`, no tracks) join in the
    /// first second; at 2 s the first ten pinned leave, so ten who had no tile in a 25-tile grid get one.
    public static var crowd: Scenario {
        let panel = (0..<50).map { i -> ScenarioParticipant in
            let key = String(format: "%02d", i + 1)
            return .palette(i, id: "p-\(key)", name: "\(benchNames[i % benchNames.count]) \(key)", tracks: avTracks(key))
        }
        let viewers = (0..<1_000).map { i in
            ScenarioParticipant(id: String(format: "v-%04d", i + 1), name: String(format: "Viewer %04d", i + 1), color: "#000000", toneHz: nil)
        }
        var events = panel.enumerated().flatMap { i, p -> [ManifestEvent] in
            [.joined(0, p.id, role: i == 0 ? "host" : "speaker"), .pinned(0, p.id)] + p.tracks.map { .published(0, $0.id) }
        }
        events += viewers.enumerated().map { i, v in .joined(i, v.id, mode: "SIGNALLING_ONLY", role: "viewer") }
        events += panel.prefix(10).map { .left(2_000, $0.id) }
        return Scenario(sessionId: "ls-synth-crowd", durationMs: 10_000, roles: CaptureManifest.Role.stageRoles,
                        participants: panel + viewers, events: events.sorted { $0.atMs < $1.atMs })
    }
}
