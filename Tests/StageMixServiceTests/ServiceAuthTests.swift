import Crypto
import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport

/// Tokens as LiveKit's: HS256 by the key's secret, `iss` the key, `exp` required and short, `nbf`
/// honoured with 60 s leeway, grants checked. Every failure is 401 except a missing grant (403).
@Suite("Service auth", .serialized)
struct ServiceAuthTests {
    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A token made by hand: any header, any payload, signed HMAC-SHA256 (or not at all).
    static func handmade(header: String, payload: String, secret: String? = ServiceFixture.secret, hmac384: Bool = false) -> String {
        let input = base64URL(Data(header.utf8)) + "." + base64URL(Data(payload.utf8))
        guard let secret else { return input + "." }
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = hmac384 ? Data(HMAC<SHA384>.authenticationCode(for: Data(input.utf8), using: key))
            : Data(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: key))
        return input + "." + base64URL(mac)
    }

    @Test func badTokensAre401AndMissingGrantsAre403() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        let now = Int(Date().timeIntervalSince1970)
        let claims = #"{"iss":"platform","exp":\#(now + 600),"grants":["compose","read","cancel"]}"#
        let body = #"{"capture": "panel"}"#

        var refused: [(String, String?)] = [
            ("no token", nil),
            ("alg none", Self.handmade(header: #"{"alg":"none","typ":"JWT"}"#, payload: claims, secret: nil)),
            ("HS384", Self.handmade(header: #"{"alg":"HS384","typ":"JWT"}"#, payload: claims, hmac384: true)),
            ("forged: another secret", Self.handmade(header: #"{"alg":"HS256"}"#, payload: claims, secret: "not-the-secret-not-the-secret-0123456789")),
            ("unknown key", Self.handmade(header: #"{"alg":"HS256"}"#, payload: claims.replacingOccurrences(of: "platform", with: "stranger"))),
            ("expired", try await ServiceFixture.token(expires: Date().addingTimeInterval(-120))),
            ("not yet valid", try await ServiceFixture.token(notBefore: Date().addingTimeInterval(300))),
            ("more than an hour", try await ServiceFixture.token(ttl: 2 * 3600)),
            ("no exp", Self.handmade(header: #"{"alg":"HS256"}"#, payload: #"{"iss":"platform","grants":["compose"]}"#)),
            ("garbage", "not.a.jwt"),
        ]
        // Tampered: a read-only token whose payload is swapped for one with every grant, signature kept.
        let readOnly = try await ServiceFixture.token(grants: [.read]).split(separator: ".")
        refused.append(("tampered", "\(readOnly[0]).\(Self.base64URL(Data(claims.utf8))).\(readOnly[2])"))
        var details: [String: String] = [:]
        for (what, token) in refused {
            let reply = try await service.request("POST", "/v1/compositions", token: token, body: body)
            details[what] = reply.json["detail"] as? String
            #expect(reply.status == 401, "\(what): \(reply.status) \(reply.body)")
            #expect(reply.headers["content-type"].first == "application/problem+json", "\(what)")
            #expect(reply.headers["www-authenticate"].first?.hasPrefix("Bearer") == true, "\(what)")
        }

        // An unknown key and a forged signature read the same: key names cannot be probed.
        #expect(details["unknown key"] != nil && details["unknown key"] == details["forged: another secret"], "\(details)")

        // Within the 60 s leeway: expired 30 s ago, or valid from 30 s on, still passes.
        let lenient = try await ServiceFixture.token(grants: [.read], expires: Date().addingTimeInterval(-30))
        #expect(try await service.request("GET", "/v1/compositions", token: lenient).status == 200)
        let early = try await ServiceFixture.token(grants: [.read], notBefore: Date().addingTimeInterval(30))
        #expect(try await service.request("GET", "/v1/compositions", token: early).status == 200)

        // A valid token without the grant: 403, for each route's grant.
        let read = try await ServiceFixture.token(grants: [.read])
        #expect(try await service.request("POST", "/v1/compositions", token: read, body: body).status == 403)
        #expect(try await service.request("POST", "/v1/plans", token: read, body: body).status == 403)
        let compose = try await ServiceFixture.token(grants: [.compose])
        let created = try await service.request("POST", "/v1/compositions", token: compose, body: body)
        #expect(created.status == 201, "\(created.body)")
        let id = created.json["id"] as? String ?? ""
        #expect(try await service.request("GET", "/v1/compositions/\(id)", token: compose).status == 403)
        #expect(try await service.request("DELETE", "/v1/compositions/\(id)", token: read).status == 403)
        // Another key does not see it at all.
        let other = try await ServiceFixture.token(key: ServiceFixture.otherKey, secret: ServiceFixture.otherSecret)
        #expect(try await service.request("GET", "/v1/compositions/\(id)", token: other).status == 404)
        #expect(try await service.request("GET", "/v1/compositions/\(id)", token: read).status == 200)

        // The keys file is read again on SIGHUP: a key removed from it stops working.
        try #"{"keys": {"other": "\#(ServiceFixture.otherSecret)"}}"#.write(toFile: "\(service.directory)/keys.json", atomically: true, encoding: .utf8)
        service.process?.send(SIGHUP)
        try await eventually(10, "the removed key is refused") {
            try await service.request("GET", "/v1/compositions", token: read).status == 401
        }
        #expect(try await service.request("GET", "/v1/compositions", token: other).status == 200)
        #expect(service.process?.isRunning == true)
    }

    @Test func badRequestsNameTheirFieldAndNeverReach500() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 0, allowPrivate: false)
        defer { Task { await service.stop() } }
        try service.addCapture("panel")
        // A capture root holding a symbolic link to a capture outside it.
        let outside = try makeTemporaryDirectory(prefix: "stagemix-outside")
        try FileManager.default.copyItem(atPath: "\(service.captureRoot)/panel", toPath: "\(outside)/panel")
        try FileManager.default.createSymbolicLink(atPath: "\(service.captureRoot)/escape", withDestinationPath: "\(outside)/panel")
        let token = try await ServiceFixture.token()

        let cases: [(String, Int, String?)] = [
            ("{", 400, nil),
            ("[1, 2]", 400, nil),
            (#"{"layout": "grid"}"#, 422, "capture"),
            (#"{"capture": 7}"#, 422, "capture"),
            (#"{"capture": "../panel"}"#, 422, "capture"),
            (#"{"capture": "\#(outside)/panel"}"#, 422, "capture"),
            (#"{"capture": "escape"}"#, 422, "capture"),
            (#"{"capture": "missing"}"#, 422, "capture"),
            (#"{"capture": "panel", "colour": "red"}"#, 422, "colour"),
            (#"{"capture": "panel", "layout": "/etc/passwd"}"#, 422, "layout"),
            (#"{"capture": "panel", "options": {"fps": 1000}}"#, 422, "options.fps"),
            (#"{"capture": "panel", "options": {"fps": true}}"#, 422, "options.fps"),
            (#"{"capture": "panel", "options": {"pauseGrace": -1}}"#, 422, "options.pauseGrace"),
            (#"{"capture": "panel", "options": {"resolution": "99999x1"}}"#, 422, "options.resolution"),
            (#"{"capture": "panel", "options": {"out": "/etc"}}"#, 422, "options.out"),
            (#"{"capture": "panel", "options": {"labels": "off"}}"#, 422, "options.labels"),
            (#"{"capture": "panel", "options": {"prices": {"currency": "USD", "perMinute": {"Nope": 1}}}}"#, 422, "options.prices"),
            (#"{"capture": "panel", "options": {"edits": {"exclude": [{"participant": "p-nobody"}]}}}"#, 422, "options.edits"),
            (#"{"capture": "panel", "options": {"edits": {"cut": [{"from": 0, "to": 999}]}}}"#, 422, "options.edits"),
            (#"{"capture": "panel", "options": {"edits": "edits.json"}}"#, 422, "options.edits"),
            (#"{"capture": "panel", "callbackUrl": "ftp://example.com/x"}"#, 422, "callbackUrl"),
            (#"{"capture": "panel", "callbackUrl": "http://127.0.0.1:9/hook"}"#, 422, "callbackUrl"),
            (#"{"capture": "panel", "callbackUrl": "http://169.254.169.254/latest"}"#, 422, "callbackUrl"),
            (#"{"capture": "panel", "callbackUrl": "http://[::1]/x"}"#, 422, "callbackUrl"),
            (#"{"capture": "panel", "idempotencyKey": ""}"#, 422, "idempotencyKey"),
            // A member named twice is refused wherever it is, named by its JSON path, not merged.
            (#"{"capture": "panel", "capture": "panel"}"#, 422, "capture"),
            (#"{"capture": "panel", "options": {"fps": 30, "fps": 25}}"#, 422, "options.fps"),
            (#"{"capture": "panel", "options": {"prices": {"currency": "EUR", "currency": "USD"}}}"#, 422, "options.prices.currency"),
            (#"{"capture": "panel", "options": {"odd name": 1}}"#, 422, "options['odd name']"),
        ]
        for (body, status, field) in cases {
            for path in ["/v1/compositions", "/v1/plans"] {
                let reply = try await service.request("POST", path, token: token, body: body)
                #expect(reply.status == status, "\(path) \(body): \(reply.status) \(reply.body)")
                #expect(reply.headers["content-type"].first == "application/problem+json")
                if let field { #expect(reply.json["field"] as? String == field, "\(body): \(reply.body)") }
            }
        }
        // Each reason names its field once, and other options by their JSON names, never CLI flags.
        let worded: [(String, String)] = [
            (#"{"capture": "panel", "options": {"edits": {"exclude": [{"participant": "Omar"}]}}}"#,
             #"options.edits: $.exclude[0].participant: expected the id of a participant of the capture, found "Omar" (did you mean "p-omar", Omar's id?)"#),
            (#"{"capture": "panel", "options": {"renditions": "1280x720@3000k", "videoBitrate": "2000k"}}"#,
             "options.renditions: sets each rendition's bitrate: leave out options.videoBitrate and options.crf"),
            (#"{"capture": "panel", "options": {"crf": 20, "videoBitrate": "3000k"}}"#,
             "options.crf: cannot be given with options.videoBitrate: choose constant quality or a bitrate"),
        ]
        for (body, detail) in worded {
            let reply = try await service.request("POST", "/v1/plans", token: token, body: body)
            #expect(reply.json["detail"] as? String == detail, "\(reply.body)")
            let reason = (reply.json["invalidParams"] as? [[String: Any]])?.first?["reason"] as? String ?? ""
            let field = reply.json["field"] as? String ?? "?"
            #expect(!reason.isEmpty && !reason.hasPrefix("\(field): ") && !detail.hasPrefix("\(field): \(field)"), "\(reply.body)")
        }
        // Nothing was queued by any of them.
        let list = try await service.request("GET", "/v1/compositions", token: token)
        #expect((list.json["data"] as? [Any])?.isEmpty == true, "\(list.body)")
        // A body over 1 MiB is 413; an unknown route 404; both problem details.
        let big = try await service.request("POST", "/v1/plans", token: token, body: String(repeating: " ", count: 2 << 20))
        #expect(big.status == 413)
        #expect(try await service.request("GET", "/v2/nothing", token: token).status == 404)
        #expect(try await service.request("GET", "/v1/compositions?limit=0", token: token).json["field"] as? String == "limit")
        #expect(try await service.request("GET", "/v1/compositions?status=done", token: token).json["field"] as? String == "status")
        #expect(try await service.request("GET", "/v1/compositions?cursor=zzz", token: token).json["field"] as? String == "cursor")
        // A dry run prices the plan with an inline table (checked from a scratch file, kept nowhere).
        let plan = try await service.request("POST", "/v1/plans", token: token, body: #"""
            {"capture": "panel", "layout": "spotlight", "options": {"prices": {"currency": "EUR", "perMinute": {"audio": 0.1, "HD": 1, "Full HD": 2, "2K": 3, "2K+": 4}}}}
            """#)
        #expect(plan.status == 200, "\(plan.body)")
        let billing = plan.json["billing"] as? [String: Any]
        #expect(billing?["currency"] as? String == "EUR")
        #expect(billing?["durationMs"] as? Int == 30000)
        // Edits inline: the panel's first 5 s trimmed and 10-15 s cut leave 20 s, billed as such.
        let edited = try await service.request("POST", "/v1/plans", token: token, body: #"""
            {"capture": "panel", "options": {"edits": {"trim": {"start": 5}, "cut": [{"from": 10, "to": 15}], "exclude": [{"participant": "p-omar"}]}}}
            """#)
        #expect(edited.status == 200, "\(edited.body)")
        #expect((edited.json["billing"] as? [String: Any])?["durationMs"] as? Int == 20000, "\(edited.body)")
        let intervals = (edited.json["plan"] as? [String: Any])?["intervals"] as? [[String: Any]] ?? []
        let shown = Set(intervals.flatMap { ($0["tiles"] as? [[String: Any]] ?? []).compactMap { $0["participantId"] as? String } })
        #expect(shown == ["p-maya"], "Omar is left out: \(shown)")
        // A speaker layout's dry run listens as compose does: the turns are in the plan (the panel's
        // tone microphones: Maya first, Omar from 4.6 s), not the pinned order.
        let speaker = try await service.request("POST", "/v1/plans", token: token, body: #"{"capture": "panel", "layout": "speaker"}"#)
        #expect(speaker.status == 200, "\(speaker.body)")
        let turns = ((speaker.json["plan"] as? [String: Any])?["speakers"] as? [String: Any])?["turns"] as? [[String: Any]] ?? []
        #expect(turns.prefix(2).compactMap { $0["participantId"] as? String } == ["p-maya", "p-omar"], "\(speaker.body.prefix(2000))")
        let badPath = try await service.request("POST", "/v1/plans", token: token, body: #"{"capture": "panel", "options": {"edits": {"trim": {"start": 500}}}}"#)
        #expect(badPath.status == 422 && (badPath.json["detail"] as? String)?.contains("$.trim.start") == true, "\(badPath.body)")
        // Refused requests and dry runs leave nothing under the output root: no table, no edits, no scratch file.
        let inputs = URL(fileURLWithPath: service.outputRoot).appendingPathComponent(".stagemix-inputs")
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: inputs.path)) ?? []
        #expect(kept.isEmpty, "\(kept)")
        #expect(!service.log.contains("request failed"), "\(service.log)")
    }
}
