import Foundation
import Testing
import StageMixTestSupport

extension TwilioImportTests {
    /// `plan` on an imported room shows each recording by its `track_name` and each person by their
    /// `identity`; where a recording's sid is shown (the billing table) it is shown whole, all 34 characters.
    @Test func thePlanShowsAnImportedRoomByItsNamesAndItsIdsWhole() throws {
        let root = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let capture = root.appendingPathComponent("capture")
        #expect(try CLI.run(["import", "twilio", try Self.room(in: root).path, "--out", capture.path]).status == 0)
        let plan = try CLI.run(["plan", capture.path])
        #expect(plan.status == 0, "\(plan.stderr)")
        let text = plan.stdout
        #expect(text.contains("alice[alice-cam, alice-mic]") || text.contains("alice[alice-mic, alice-cam]"), "\(text)")
        #expect(text.contains(": video bob-cam high 320x240"), "a tile names its track: \(text)")
        #expect(text.contains("audio: alice-mic"), "\(text)")
        // The billing table: every track by name and by its whole sid.
        let billing = text.components(separatedBy: "\nBilling").last ?? ""
        for (name, sid) in [("alice-cam", "RT0000000000000000000000000000a001"), ("bob-cam", "RT0000000000000000000000000000b001")] {
            #expect(billing.split(separator: "\n").contains { $0.contains(name) && $0.contains(sid) }, "\(name) \(sid): \(billing)")
        }
        // No sid is cut anywhere: every RT... in the text has its 34 characters.
        let sids = text.matches(of: #/RT[0-9a-fA-F]+/#).map { String($0.output) }
        #expect(!sids.isEmpty && sids.allSatisfy { $0.count == 34 }, "\(sids)")
    }
}
