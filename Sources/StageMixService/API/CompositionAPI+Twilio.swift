import Foundation
import Hummingbird
import StageMixQueue

/// The Twilio-shaped routes (`/v1/Compositions`, docs/twilio.md): Twilio's Compositions API over the same
/// queue, so code written for Twilio moves by changing its base URL and credentials. Requests are
/// form-encoded, answers are Twilio's resource and error shapes, and callers sign in with HTTP Basic
/// (an API key and its secret) or a Bearer token.
extension CompositionAPI {
    func addTwilioRoutes(to router: Router<BasicRequestContext>) {
        let twilio = router.group("/v1/Compositions").add(middleware: TwilioErrorMiddleware())
        twilio.post { request, context in try await twilioCreate(request, context: context) }
        twilio.get { request, context in try await twilioList(request, context: context) }
        twilio.get("{sid}") { request, context in try await twilioShow(request, context: context) }
        twilio.delete("{sid}") { request, context in try await twilioDelete(request, context: context) }
        twilio.get("{sid}/Media") { request, context in try await twilioMedia(request, context: context) }
        // The signed link itself: no credentials but the signature.
        twilio.get("{sid}/Media/composition.mp4") { request, context in try await twilioDownload(request, context: context) }
        twilio.head("{sid}/Media/composition.mp4") { request, context in
            var response = try await twilioDownload(request, context: context)
            response.body = .init()
            return response
        }
    }

    /// `--public-url`, or `http://host:port` as the caller reached this service (which speaks plain HTTP).
    private func base(_ request: Request) -> String {
        publicURL ?? "http://\(request.head.authority ?? "localhost")"
    }

    /// The caller, holding `grant`: an API key with its secret holds every grant, a token those it names.
    private func twilioCaller(_ request: Request, needs grant: Grant) async throws -> Caller {
        let caller = try await verifier.twilioCaller(authorization: request.headers[.authorization])
        try TokenVerifier.require(grant, of: caller)
        return caller
    }

    /// The composition a SID names, if the caller's key made it through the Twilio-shaped API.
    private func twilioFind(_ context: BasicRequestContext, apiKey: String?) async throws -> (Composition, Job, TwilioParameters) {
        let sid = context.parameters.get("sid") ?? ""
        guard let id = TwilioParameters.id(ofSid: sid), let (composition, job) = try await store.composition(id: id, apiKey: apiKey),
              let parameters = composition.twilio else {
            throw Problem.notFound("The requested resource /v1/Compositions/\(sid.prefix(64)) was not found")
        }
        return (composition, job, parameters)
    }

    private func twilioView(_ composition: Composition, _ job: Job, _ parameters: TwilioParameters, request: Request) -> TwilioCompositionView {
        TwilioCompositionView(composition, job: job, parameters: parameters, base: base(request), now: Date().timeIntervalSince1970)
    }

    func twilioCreate(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await twilioCaller(request, needs: .compose)
        var body = request
        let buffer = try await body.collectBody(upTo: CompositionRequest.maxBodyBytes)
        let parsed = try TwilioCompositionRequest.parse(Data(buffer.readableBytesView), contentType: request.headers[.contentType],
                                                        roots: roots, callbacks: callbacks, tables: tables)
        do {
            _ = try await check(parsed.request)
        } catch let problem as Problem where problem.field == "VideoLayout" || problem.field == "capture" {
            // The layout document's problems name Twilio's parameters by its JSON paths (`$.VideoLayout.main.x_pos`, `$.Resolution`).
            let field = problem.detail.contains("$.Resolution") ? "Resolution" : problem.field == "capture" ? "RoomSid" : "VideoLayout"
            throw Problem.invalid(field, problem.invalidParams?.first?.reason ?? problem.detail)
        }
        guard case .created(let composition, let job) = try await enqueue(parsed.request, caller: caller, logger: context.logger,
                                                                          twilio: parsed.parameters) else {
            throw Problem.unavailable("the composition could not be made; try again")
        }
        let sid = TwilioParameters.sid(of: composition.id)
        return APIResponse.json(twilioView(composition, job, parsed.parameters, request: request), status: .created,
                                headers: [.location: "\(base(request))/v1/Compositions/\(sid)"])
    }

    func twilioShow(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await twilioCaller(request, needs: .read)
        let (composition, job, parameters) = try await twilioFind(context, apiKey: caller.apiKey)
        return APIResponse.json(twilioView(composition, job, parameters, request: request))
    }

    /// Twilio's list: `Status`, `RoomSid`, `PageSize` (1 to 1000, default 50) and the `PageToken` of a
    /// `next_page_url`, newest first.
    func twilioList(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await twilioCaller(request, needs: .read)
        let query = request.uri.queryParameters
        let known: Set<String> = ["Status", "RoomSid", "DateCreatedAfter", "DateCreatedBefore", "PageSize", "Page", "PageToken"]
        if let unknown = query.map({ String($0.key) }).sorted().first(where: { !known.contains($0) }) {
            throw Problem.invalid(String(unknown.prefix(64)), "unknown parameter; the list takes \(known.sorted().joined(separator: ", "))")
        }
        func date(_ name: String) throws(Problem) -> Double? {
            guard let text = query[Substring(name)].map(String.init) else { return nil }
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            let fractional = ISO8601DateFormatter()
            fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            guard let parsed = formatter.date(from: text) ?? fractional.date(from: text) else {
                throw Problem.invalid(name, "must be an ISO 8601 date-time with a time zone, like 2026-12-01T00:00:00Z")
            }
            return parsed.timeIntervalSince1970
        }
        let after = try date("DateCreatedAfter") ?? -Double.greatestFiniteMagnitude
        let before = try date("DateCreatedBefore") ?? Double.greatestFiniteMagnitude
        // After the before bound: nothing, never a range that traps.
        let created = after < before ? after..<before : after..<after
        var states = JobState.allCases
        if let status = query["Status"].map(String.init) {
            guard let chosen = TwilioCompositionView.states(for: status) else {
                throw Problem.invalid("Status", "must be one of enqueued, processing, completed, deleted, failed")
            }
            states = chosen
        }
        var pageSize = 50
        if let text = query["PageSize"] {
            guard let n = Int(text), (1...1000).contains(n) else { throw Problem.invalid("PageSize", "must be a whole number from 1 to 1000") }
            pageSize = n
        }
        // `Page` is Twilio's page number; paging is by `PageToken`, so it is only echoed in `meta.page`.
        var pageNumber = 0
        if let text = query["Page"] {
            guard let n = Int(text), n >= 0 else { throw Problem.invalid("Page", "must be a whole number from 0") }
            pageNumber = n
        }
        let room = query["RoomSid"].map(String.init) ?? ""
        let cursor: PageCursor?
        do {
            cursor = try query["PageToken"].map { text throws(Problem) in try PageCursor(String(text)) }
        } catch {
            throw Problem.invalid("PageToken", "is not a page token this API gave out")
        }
        let rows = try await store.compositions(apiKey: caller.apiKey, states: states, after: cursor.map { ($0.createdAt, $0.id) },
                                                limit: pageSize + 1, twilioRoom: room, created: created)
        let page = rows.prefix(pageSize)
        let base = base(request)
        var filters = ""
        if let status = query["Status"] { filters += "&Status=\(FormFields.encode(String(status)))" }
        if !room.isEmpty { filters += "&RoomSid=\(FormFields.encode(room))" }
        for name in ["DateCreatedAfter", "DateCreatedBefore"] {
            if let value = query[Substring(name)] { filters += "&\(name)=\(FormFields.encode(String(value)))" }
        }
        let first = "\(base)/v1/Compositions?PageSize=\(pageSize)\(filters)"
        let next = rows.count > pageSize ? page.last.map {
            "\(first)&PageToken=\(PageCursor(createdAt: $0.0.createdAt, id: $0.0.id).text)"
        } : nil
        let views = page.compactMap { row in row.0.twilio.map { twilioView(row.0, row.1, $0, request: request) } }
        let meta = TwilioPageMeta(page: pageNumber, page_size: pageSize, first_page_url: first, previous_page_url: nil,
                                  url: "\(base)\(request.uri.description)", next_page_url: next, key: "compositions")
        return APIResponse.json(TwilioPage(compositions: views, meta: meta))
    }

    /// Twilio deletes a composition's media and keeps its record as `deleted`. Here a composition still
    /// queued or composing is cancelled (its output is never published) and shows `deleted`; a finished
    /// composition's output stays where it was published, and deleting it is refused (409), since the
    /// output root may be shared with other tools.
    func twilioDelete(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await twilioCaller(request, needs: .cancel)
        let (composition, job, _) = try await twilioFind(context, apiKey: caller.apiKey)
        guard JobState.active.contains(job.state) else {
            throw Problem.conflict("composition \(TwilioParameters.sid(of: composition.id)) is \(TwilioCompositionView.status(of: job.state)); "
                                   + "its output at \(composition.destination) is left for you to remove")
        }
        switch try await store.cancel(id: composition.id) {
        case .cancelled, .flagged:
            // Flagged: its worker stops it, and it shows `deleted` once stopped.
            return Response(status: .noContent)
        case .alreadyFinished:
            throw Problem.conflict("composition \(TwilioParameters.sid(of: composition.id)) finished before it could be cancelled")
        }
    }

    /// 302 to a URL that reads the MP4 for `Ttl` seconds (default 3600), with Twilio's `redirect_to` body.
    func twilioMedia(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await twilioCaller(request, needs: .read)
        let (composition, job, _) = try await twilioFind(context, apiKey: caller.apiKey)
        guard job.state == .succeeded else {
            throw Problem.notFound("composition \(TwilioParameters.sid(of: composition.id)) has no media: it is \(TwilioCompositionView.status(of: job.state))")
        }
        var ttl = TwilioMedia.defaultTtl
        if let text = request.uri.queryParameters["Ttl"] {
            guard let n = Int(text), (1...TwilioMedia.maxTtl).contains(n) else {
                throw Problem.invalid("Ttl", "must be a whole number of seconds from 1 to \(TwilioMedia.maxTtl)")
            }
            ttl = n
        }
        // A token's holder gets no link that outlives the token.
        if let expires = caller.expires { ttl = max(1, min(ttl, Int(expires.timeIntervalSinceNow))) }
        guard let secret = verifier.keys.secret(for: composition.apiKey) else { throw Problem.unavailable("the API key is gone") }
        let link = try TwilioMedia.link(composition, base: base(request), ttl: ttl, secret: secret, now: Date().timeIntervalSince1970)
        return APIResponse.json(["redirect_to": link], status: .found, headers: [.location: link])
    }

    func twilioDownload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let expiresText = query["Expires"], let expires = Int(expiresText), let signature = query["Signature"] else {
            throw Problem(status: 403, title: "Forbidden", detail: "the link is not signed (Expires, Signature)", type: "forbidden")
        }
        let refused = Problem(status: 403, title: "Forbidden", detail: "the link's signature does not verify", type: "forbidden")
        // An unknown SID is answered as a wrong signature: the link says nothing of which compositions exist.
        guard let (composition, job, _) = try? await twilioFind(context, apiKey: nil) else { throw refused }
        let sid = TwilioParameters.sid(of: composition.id)
        guard let secret = verifier.keys.secret(for: composition.apiKey),
              TwilioMedia.verify(String(signature), sid: sid, expires: expires, secret: secret) else { throw refused }
        guard Double(expires) >= Date().timeIntervalSince1970 else {
            throw Problem(status: 403, title: "Forbidden", detail: "the link expired; ask /v1/Compositions/\(sid)/Media again", type: "forbidden")
        }
        guard job.state == .succeeded, let path = TwilioMedia.localFile(composition) else {
            throw Problem.notFound("composition \(sid) has no media here")
        }
        return try await TwilioMedia.serve(path, range: request.headers[.range], context: context)
    }
}
