import Foundation
import StageMixService
import Testing
@testable import StageMixQueue
import StageMixQueueTestSupport
import StageMixTestSupport

/// The Twilio-shaped API driven by Twilio's own Python library (twilio 9, from PyPI), pointed at the
/// service by its base URL and given an API key and secret: code written for Twilio moves unchanged.
/// The room is made by the ffmpeg CLI as Twilio leaves one, imported with `stagemix import twilio`,
/// and composed by the real `stagemix compose`; the status callbacks are checked with the library's
/// own `RequestValidator`.
@Suite("Twilio-shaped API", .serialized)
struct ServiceTwilioTests {
    /// Runs as a Twilio customer's code would: create, poll, list, fetch the media through its redirect,
    /// receive the callbacks; prints what it saw as JSON.
    static let client = #"""
        import json, sys, threading, time, urllib.error, urllib.parse, urllib.request
        from http.server import BaseHTTPRequestHandler, HTTPServer
        from twilio.rest import Client
        from twilio.base.exceptions import TwilioRestException
        from twilio.request_validator import RequestValidator

        base, key, secret, room, media_path = sys.argv[1:6]
        callbacks, got = [], []
        class Receiver(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0))).decode()
                params = dict(urllib.parse.parse_qsl(body, keep_blank_values=True))
                url = "http://127.0.0.1:%d%s" % (server.server_port, self.path)
                valid = RequestValidator(secret).validate(url, params, self.headers.get("X-Twilio-Signature", ""))
                callbacks.append({"params": params, "valid": valid, "type": self.headers.get("Content-Type")})
                self.send_response(204); self.end_headers()
            def do_GET(self):
                url = "http://127.0.0.1:%d%s" % (server.server_port, self.path)
                params = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(self.path).query, keep_blank_values=True))
                valid = RequestValidator(secret).validate(url, {}, self.headers.get("X-Twilio-Signature", ""))
                got.append({"params": params, "valid": valid})
                self.send_response(204); self.end_headers()
            def log_message(self, *args): pass
        server = HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()

        client = Client(key, secret)
        client.video.base_url = base
        seen = {}
        try:
            client.video.v1.compositions.create(room_sid=room, video_layout={"main": {"max_columns": 0}}, audio_sources=["*"])
        except TwilioRestException as error:
            seen["refused"] = {"status": error.status, "code": error.code, "message": error.msg}
        composition = client.video.v1.compositions.create(
            room_sid=room, resolution="320x180", format="mp4", audio_sources=["bob*"], trim=True,
            video_layout={"grid": {"video_sources": ["*-cam"]}},
            status_callback="http://127.0.0.1:%d/twilio-events" % server.server_port)
        seen["created"] = {"sid": composition.sid, "status": composition.status, "room_sid": composition.room_sid,
                           "audio_sources": composition.audio_sources, "video_layout": composition.video_layout,
                           "resolution": composition.resolution, "format": composition.format, "url": composition.url}
        deadline = time.time() + 240
        while composition.status not in ("completed", "failed") and time.time() < deadline:
            time.sleep(0.5)
            composition = client.video.v1.compositions(composition.sid).fetch()
        seen["fetched"] = {"status": composition.status, "duration": composition.duration, "size": composition.size,
                           "bitrate": composition.bitrate, "media": composition.links["media"],
                           "date_completed": str(composition.date_completed)}
        seen["listed"] = [c.sid for c in client.video.v1.compositions.list(room_sid=room)]
        seen["completed_only"] = [c.sid for c in client.video.v1.compositions.list(status="completed")]
        response = client.request("GET", composition.links["media"] + "?Ttl=600")
        seen["media"] = {"status": response.status_code, "redirect_to": json.loads(response.text)["redirect_to"]}
        urllib.request.urlretrieve(seen["media"]["redirect_to"], media_path)
        ranged = urllib.request.urlopen(urllib.request.Request(seen["media"]["redirect_to"], headers={"Range": "bytes=100-199"}))
        seen["ranged"] = {"status": ranged.status, "length": len(ranged.read()), "range": ranged.headers.get("Content-Range")}
        try:
            urllib.request.urlopen(seen["media"]["redirect_to"].replace("Signature=", "Signature=x"))
        except urllib.error.HTTPError as error:
            seen["tampered"] = error.code
        deadline = time.time() + 30
        while not any(c["params"].get("StatusCallbackEvent") == "composition-available" for c in callbacks) and time.time() < deadline:
            time.sleep(0.2)
        seen["callbacks"] = callbacks
        client.video.v1.compositions.create(room_sid=room, resolution="320x180", video_layout={"grid": {"video_sources": ["*"]}},
            status_callback="http://127.0.0.1:%d/by-get?tenant=7" % server.server_port, status_callback_method="GET")
        deadline = time.time() + 120
        while not any(c["params"].get("StatusCallbackEvent") == "composition-available" for c in got) and time.time() < deadline:
            time.sleep(0.2)
        seen["got"] = got
        try:
            client.video.v1.compositions("CJ" + "0" * 32).fetch()
        except TwilioRestException as error:
            seen["missing"] = {"status": error.status, "code": error.code}
        print(json.dumps(seen))
        """#

    @Test func twiliosOwnLibraryComposesAnImportedRoomAndGetsItsMediaAndCallbacks() async throws {
        let service = try await ServiceFixture(backend: .sqlite, workers: 1, fakeCompose: false)
        defer { Task { await service.stop() } }
        let scratch = try makeTemporaryDirectory(prefix: "stagemix-twilio")
        let room = try TwilioRoomFixture.room(in: URL(fileURLWithPath: scratch))
        let roomSid = TwilioRoomFixture.roomSid
        try await run(try WorkerProcesses.binary, ["import", "twilio", room.path, "--out", "\(service.captureRoot)/\(roomSid)"])
        let script = "\(scratch)/client.py"
        try Self.client.write(toFile: script, atomically: true, encoding: .utf8)
        let media = "\(scratch)/composition.mp4"

        let output = try await run("/usr/bin/env", ["python3", script, "http://127.0.0.1:\(service.port)", ServiceFixture.apiKey,
                                                     ServiceFixture.secret, roomSid, media])
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")

        // A bad layout is Twilio's 400 with its error shape, naming the region and the property.
        let refused = seen["refused"] as? [String: Any] ?? [:]
        #expect(refused["status"] as? Int == 400 && refused["code"] as? Int == 20001, "\(refused)")
        #expect((refused["message"] as? String ?? "").contains("main.max_columns"), "\(refused)")

        let created = seen["created"] as? [String: Any] ?? [:]
        let sid = created["sid"] as? String ?? ""
        #expect(sid.hasPrefix("CJ") && sid.count == 34 && created["status"] as? String == "enqueued", "\(created)")
        #expect(created["room_sid"] as? String == roomSid && created["audio_sources"] as? [String] == ["bob*"], "\(created)")
        #expect(created["resolution"] as? String == "320x180" && created["format"] as? String == "mp4", "\(created)")
        #expect((created["video_layout"] as? [String: Any])?["grid"] != nil, "\(created)")
        #expect(created["url"] as? String == "http://127.0.0.1:\(service.port)/v1/Compositions/\(sid)")

        let fetched = seen["fetched"] as? [String: Any] ?? [:]
        #expect(fetched["status"] as? String == "completed", "\(fetched) \(service.log)")
        let duration = fetched["duration"] as? Int ?? 0
        #expect((5...7).contains(duration), "the room is about 6 s long: \(fetched)")
        #expect(seen["listed"] as? [String] == [sid] && seen["completed_only"] as? [String] == [sid], "\(seen)")

        // The media: a 302 to a signed link that reads the MP4 without credentials.
        let mediaSeen = seen["media"] as? [String: Any] ?? [:]
        #expect(mediaSeen["status"] as? Int == 302, "\(mediaSeen)")
        let size = (try? FileManager.default.attributesOfItem(atPath: media)[.size] as? Int) ?? 0
        #expect(size > 10_000 && fetched["size"] as? Int == size, "\(fetched), downloaded \(size) bytes")
        let ranged = seen["ranged"] as? [String: Any] ?? [:]
        #expect(ranged["status"] as? Int == 206 && ranged["length"] as? Int == 100 && ranged["range"] as? String == "bytes 100-199/\(size)", "\(ranged)")
        #expect(seen["tampered"] as? Int == 403, "a link whose signature was changed reads nothing")
        let probe = try await run("/usr/bin/env", ["ffprobe", "-v", "error", "-show_entries", "stream=codec_name,width,height",
                                                   "-of", "csv=p=0", media])
        #expect(probe.contains("h264,320,180") && probe.contains("aac"), "\(probe)")

        // Twilio's callbacks, in order, form-encoded, each signed as Twilio signs (checked by its library).
        let callbacks = seen["callbacks"] as? [[String: Any]] ?? []
        let events = callbacks.compactMap { ($0["params"] as? [String: String])?["StatusCallbackEvent"] }
        #expect(events.first == "composition-enqueued" && events.dropFirst().first == "composition-started", "\(events)")
        #expect(events.last == "composition-available", "\(events)")
        #expect(callbacks.allSatisfy { $0["valid"] as? Bool == true }, "\(callbacks)")
        #expect(callbacks.allSatisfy { ($0["type"] as? String ?? "").hasPrefix("application/x-www-form-urlencoded") })
        let available = callbacks.last?["params"] as? [String: String] ?? [:]
        #expect(available["CompositionSid"] == sid && available["RoomSid"] == roomSid && available["AccountSid"] == ServiceFixture.apiKey)
        #expect(available["MediaUri"] == "/v1/Compositions/\(sid)/Media" && available["Size"] == "\(size)", "\(available)")

        // Asked for by GET: the parameters in the query beside the URL's own, the whole URL signed.
        let got = seen["got"] as? [[String: Any]] ?? []
        let gotEvents = got.compactMap { ($0["params"] as? [String: String])?["StatusCallbackEvent"] }
        #expect(gotEvents.first == "composition-enqueued" && gotEvents.last == "composition-available", "\(gotEvents)")
        #expect(got.allSatisfy { $0["valid"] as? Bool == true && ($0["params"] as? [String: String])?["tenant"] == "7" }, "\(got)")

        // The JSON API serves the same composition's page, its spans readable.
        let id = try #require(TwilioParameters.id(ofSid: sid))
        let page = try await service.request("GET", "/v1/compositions/\(id)/report", token: try await ServiceFixture.token())
        #expect(page.status == 200 && page.headers.first(name: "content-type")?.hasPrefix("text/html") == true, "\(page.status)")
        #expect(page.body.contains("data-participant=\"bob\" data-kind=\"onstage\""), "\(page.body.prefix(300))")

        let missing = seen["missing"] as? [String: Any] ?? [:]
        #expect(missing["status"] as? Int == 404 && missing["code"] as? Int == 20404, "\(missing)")
    }
}
