import Foundation
@testable import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// The Twilio-shaped routes' answers to what Twilio's API would refuse, their credentials, and
/// deletion, over the test's stand-in compose.
@Suite("Twilio-shaped API: requests", .serialized)
struct ServiceTwilioRequestTests {
    static let layout = "VideoLayout=" + FormFields.encode(#"{"grid": {"video_sources": ["*"]}}"#)

    @Test func credentialsAreTwiliosBasicOrABearerToken() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        try service.addCapture("RMaaaa")
        let anonymous = try await service.twilio("GET", "/v1/Compositions", key: nil)
        #expect(anonymous.status == 401 && anonymous.json["code"] as? Int == 20003, "\(anonymous.body)")
        #expect(anonymous.headers.first(name: "www-authenticate")?.hasPrefix("Basic") == true)
        let wrong = try await service.twilio("GET", "/v1/Compositions", secret: "not-the-secret")
        #expect(wrong.status == 401 && (wrong.json["message"] as? String ?? "").contains("secret is wrong"), "\(wrong.body)")
        let unknown = try await service.twilio("GET", "/v1/Compositions", key: "nobody")
        #expect(unknown.status == 401 && unknown.body == wrong.body, "an unknown key and a wrong secret are told apart by nothing")
        let listed = try await service.twilio("GET", "/v1/Compositions")
        #expect(listed.status == 200 && (listed.json["meta"] as? [String: Any])?["key"] as? String == "compositions", "\(listed.body)")
        let bearer = try await service.request("GET", "/v1/Compositions", token: try await ServiceFixture.token())
        #expect(bearer.status == 200, "\(bearer.body)")
    }

    @Test func whatTwilioWouldRefuseIsA400NamingTheParameter() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        try service.addCapture("RMaaaa")
        func refusal(_ form: String, contentType: String = "application/x-www-form-urlencoded") async throws -> String {
            let reply = try await service.twilio("POST", "/v1/Compositions", form: form, contentType: contentType)
            #expect(reply.status == 400 && reply.json["code"] as? Int == 20001 && reply.json["status"] as? Int == 400, "\(form): \(reply.body)")
            return reply.json["message"] as? String ?? ""
        }
        #expect(try await refusal("\(Self.layout)").contains("RoomSid: is required"))
        #expect(try await refusal("RoomSid=RMnone&\(Self.layout)").contains("RoomSid: names the folder of an imported room"))
        #expect(try await refusal("RoomSid=..%2Fetc&\(Self.layout)").contains("RoomSid: names the folder of an imported room") )
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&Colour=red").contains("Colour: unknown parameter"))
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&Trim=true&Trim=false").contains("Trim: is given more than once"))
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&Format=webm").contains("Format: must be mp4"))
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&Trim=maybe").contains("Trim: must be true or false"))
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&StatusCallbackMethod=PUT").contains("StatusCallbackMethod"))
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&StatusCallback=ftp%3A%2F%2Fx").contains("StatusCallback: must be an http"))
        #expect(try await refusal("RoomSid=RMaaaa&AudioSources=alice").contains("does not make audio-only compositions"))
        #expect(try await refusal("RoomSid=RMaaaa").contains("VideoLayout or AudioSources"))
        #expect(try await refusal("RoomSid=RMaaaa&VideoLayout=%7B").contains("VideoLayout: is not JSON"))
        #expect(try await refusal("RoomSid=RMaaaa&\(Self.layout)&Resolution=1920x1080").contains("Resolution"))
        let region = try await refusal("RoomSid=RMaaaa&VideoLayout=" + FormFields.encode(#"{"main": {"x_pos": 9999, "video_sources": ["*"]}}"#))
        #expect(region.contains("$.VideoLayout.main.x_pos"), "\(region)")
        #expect(try await refusal(#"{"RoomSid": "RMaaaa"}"#, contentType: "application/json").contains("form-encoded"))
        let nothing = try await service.twilio("GET", "/v1/Compositions/CJ0123")
        #expect(nothing.status == 404 && nothing.json["code"] as? Int == 20404, "\(nothing.body)")
    }

    /// A composition still queued or composing is cancelled and shows `deleted`; one that finished keeps
    /// its output (deleting that is refused), and its media is only there once completed.
    @Test func deletingCancelsAQueuedCompositionAndKeepsAFinishedOnesOutput() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1)
        defer { Task { await service.stop() } }
        let gate = "\(service.directory)/gate"
        try service.addCapture("RMheld", behaviour: "gate=\(gate)")
        let held = try await service.twilio("POST", "/v1/Compositions", form: "RoomSid=RMheld&\(Self.layout)")
        #expect(held.status == 201, "\(held.body)")
        let sid = held.json["sid"] as? String ?? ""
        #expect(held.headers.first(name: "location") == "http://127.0.0.1:\(service.port)/v1/Compositions/\(sid)")
        let early = try await service.twilio("GET", "/v1/Compositions/\(sid)/Media")
        #expect(early.status == 404 && (early.json["message"] as? String ?? "").contains("has no media"), "\(early.body)")
        let deleted = try await service.twilio("DELETE", "/v1/Compositions/\(sid)")
        #expect(deleted.status == 204, "\(deleted.body)")
        try await eventually(30, "the held composition is deleted") {
            try await service.twilio("GET", "/v1/Compositions/\(sid)").json["status"] as? String == "deleted"
        }
        let shown = try await service.twilio("GET", "/v1/Compositions/\(sid)").json
        #expect(shown["date_deleted"] is String, "\(shown)")

        try service.addCapture("RMdone")
        let done = try await service.twilio("POST", "/v1/Compositions", form: "RoomSid=RMdone&\(Self.layout)")
        let doneSid = done.json["sid"] as? String ?? ""
        try await eventually(30, "the composition completes") {
            try await service.twilio("GET", "/v1/Compositions/\(doneSid)").json["status"] as? String == "completed"
        }
        let refused = try await service.twilio("DELETE", "/v1/Compositions/\(doneSid)")
        #expect(refused.status == 409 && (refused.json["message"] as? String ?? "").contains("left for you to remove"), "\(refused.body)")
        // Each POST is a composition of its own, as at Twilio: the same form again makes another.
        let again = try await service.twilio("POST", "/v1/Compositions", form: "RoomSid=RMdone&\(Self.layout)")
        #expect(again.status == 201 && again.json["sid"] as? String != doneSid, "\(again.body)")
        // The JSON API's compositions are not Twilio's resources.
        let json = try await service.request("POST", "/v1/compositions", token: try await ServiceFixture.token(), body: #"{"capture": "RMdone"}"#)
        let id = json.json["id"] as? String ?? ""
        let asTwilio = try await service.twilio("GET", "/v1/Compositions/\(TwilioParameters.sid(of: id))")
        #expect(json.status == 201 && asTwilio.status == 404, "\(json.body) \(asTwilio.body)")
    }

    /// A token holds only its grants here too; another key sees nothing; a signed link opens only its
    /// own composition, only until it expires; the list filters and pages as Twilio's.
    @Test func grantsKeysLinksAndTheListHoldAsElsewhere() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1, extra: ["--public-url", "https://stagemix.example.com/"])
        defer { Task { await service.stop() } }
        try service.addCapture("RMone")
        let first = try await service.twilio("POST", "/v1/Compositions", form: "RoomSid=RMone&\(Self.layout)")
        let second = try await service.twilio("POST", "/v1/Compositions", form: "RoomSid=RMone&\(Self.layout)")
        let (a, b) = (first.json["sid"] as? String ?? "", second.json["sid"] as? String ?? "")
        #expect(first.json["url"] as? String == "https://stagemix.example.com/v1/Compositions/\(a)", "\(first.body)")

        let reader = try await ServiceFixture.token(grants: [.read])
        let created = try await service.request("POST", "/v1/Compositions", token: reader, body: nil)
        #expect(created.status == 403, "\(created.body)")
        #expect(try await service.request("DELETE", "/v1/Compositions/\(a)", token: reader).status == 403)
        #expect(try await service.request("GET", "/v1/Compositions/\(a)", token: reader).status == 200)
        for path in ["/v1/Compositions/\(a)", "/v1/Compositions/\(a)/Media"] {
            let other = try await service.twilio("GET", path, key: ServiceFixture.otherKey, secret: ServiceFixture.otherSecret)
            #expect(other.status == 404, "\(path): \(other.body)")
        }
        let otherDelete = try await service.twilio("DELETE", "/v1/Compositions/\(a)", key: ServiceFixture.otherKey, secret: ServiceFixture.otherSecret)
        #expect(otherDelete.status == 404)

        // Links: A's signature does not open B; an expired one opens nothing; an unknown SID is told apart from neither.
        let later = Int(Date().timeIntervalSince1970) + 600, earlier = Int(Date().timeIntervalSince1970) - 10
        func link(_ sid: String, _ expires: Int, signedFor: String) -> String {
            "/v1/Compositions/\(sid)/Media/composition.mp4?Expires=\(expires)&Signature=\(TwilioMedia.signature(sid: signedFor, expires: expires, secret: ServiceFixture.secret))"
        }
        let swapped = try await service.twilio("GET", link(b, later, signedFor: a), key: nil)
        let expired = try await service.twilio("GET", link(a, earlier, signedFor: a), key: nil)
        let unknown = try await service.twilio("GET", link("CJ" + String(repeating: "0", count: 32), later, signedFor: a), key: nil)
        #expect(swapped.status == 403 && expired.status == 403 && unknown.status == 403, "\(swapped.body) \(expired.body) \(unknown.body)")
        #expect((expired.json["message"] as? String ?? "").contains("expired") && swapped.body == unknown.body)

        // The list: newest first, a page of one leading to the next, date bounds, unknown parameters refused.
        let page = try await service.twilio("GET", "/v1/Compositions?PageSize=1")
        #expect((page.json["compositions"] as? [[String: Any]])?.map { $0["sid"] as? String } == [b], "\(page.body)")
        let next = (page.json["meta"] as? [String: Any])?["next_page_url"] as? String ?? ""
        #expect(next.hasPrefix("https://stagemix.example.com/v1/Compositions?PageSize=1&PageToken="), "\(next)")
        let rest = try await service.twilio("GET", String(next.dropFirst("https://stagemix.example.com".count)))
        #expect((rest.json["compositions"] as? [[String: Any]])?.map { $0["sid"] as? String } == [a], "\(rest.body)")
        let future = try await service.twilio("GET", "/v1/Compositions?DateCreatedAfter=2099-01-01T00:00:00Z")
        #expect((future.json["compositions"] as? [Any])?.isEmpty == true, "\(future.body)")
        let upsideDown = try await service.twilio("GET", "/v1/Compositions?DateCreatedAfter=2099-01-01T00:00:00Z&DateCreatedBefore=2000-01-01T00:00:00Z")
        #expect(upsideDown.status == 200 && (upsideDown.json["compositions"] as? [Any])?.isEmpty == true, "\(upsideDown.body)")
        let odd = try await service.twilio("GET", "/v1/Compositions?Colour=red")
        #expect(odd.status == 400 && (odd.json["message"] as? String ?? "").contains("Colour: unknown parameter"), "\(odd.body)")
        let badDate = try await service.twilio("GET", "/v1/Compositions?DateCreatedBefore=yesterday")
        #expect(badDate.status == 400 && (badDate.json["message"] as? String ?? "").contains("DateCreatedBefore"), "\(badDate.body)")
        // A route that does not exist under the Twilio prefix is still Twilio's shape.
        let nowhere = try await service.twilio("GET", "/v1/Compositions/\(a)/Nothing")
        #expect(nowhere.status == 404 && nowhere.json["code"] as? Int == 20404, "\(nowhere.body)")
    }

    @Test func byteRangesAreReadAsRFC9110Says() {
        let size = 1000
        #expect(TwilioMedia.byteRange("bytes=0-99", size: size) == .some(0...99))
        #expect(TwilioMedia.byteRange("bytes=900-", size: size) == .some(900...999))
        #expect(TwilioMedia.byteRange("bytes=-100", size: size) == .some(900...999))
        #expect(TwilioMedia.byteRange("bytes=-5000", size: size) == .some(0...999))
        #expect(TwilioMedia.byteRange("bytes=990-5000", size: size) == .some(990...999))
        #expect(TwilioMedia.byteRange("bytes=1000-", size: size) == .some(nil), "past the end: 416")
        #expect(TwilioMedia.byteRange("bytes=-0", size: size) == .some(nil), "an empty suffix: 416")
        #expect(TwilioMedia.byteRange("bytes=0-1,5-9", size: size) == nil, "several ranges: the whole file")
        #expect(TwilioMedia.byteRange("bytes=9-1", size: size) == nil)
        #expect(TwilioMedia.byteRange("items=0-1", size: size) == nil)
        #expect(TwilioMedia.byteRange("bytes=99999999999999999999-", size: size) == nil)
    }
}
