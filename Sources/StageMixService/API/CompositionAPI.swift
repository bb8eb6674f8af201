import Foundation
public import Hummingbird
import Logging
import StageMixCapture
import StageMixLayout
import StageMixPipeline
import StageMixPlan
import StageMixReportPage
import StageMixOptions
public import StageMixPublishing
public import StageMixQueue

/// The routes of the API, over the queue's database. Every route but the health checks, the metrics
/// and the OpenAPI document needs a token (``TokenVerifier``); a composition is seen only by the key
/// that created it.
public struct CompositionAPI: Sendable {
    let store: any SQLJobStore
    let verifier: TokenVerifier
    let roots: CaptureRoots
    let storage: StorageAllowList
    let callbacks: CallbackPolicy
    let tables: InlineTables
    /// Each composition is published under it, as `<outputRoot>/<id>`: a folder, or a prefix within `storage`.
    let outputRoot: OutputDestination
    let maxAttempts: Int
    let metrics: WorkerMetrics
    /// `--public-url`: the base of the absolute URLs the Twilio-shaped routes give out.
    let publicURL: String?

    public init(store: any SQLJobStore, verifier: TokenVerifier, roots: CaptureRoots, storage: StorageAllowList, callbacks: CallbackPolicy,
                outputRoot: OutputDestination, tables: InlineTables, maxAttempts: Int, metrics: WorkerMetrics, publicURL: String? = nil) {
        self.store = store
        self.verifier = verifier
        self.roots = roots
        self.storage = storage
        self.callbacks = callbacks
        self.tables = tables
        self.outputRoot = outputRoot
        self.maxAttempts = maxAttempts
        self.metrics = metrics
        self.publicURL = publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    public func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Outermost first: the request metrics count the answer the problem middleware made of an error,
        // with the status actually sent (a 401 or 422 is not a 500, a 405 not a 404).
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ProblemMiddleware())
        router.get("/healthz") { _, _ in APIResponse.json(["status": "ok"]) }
        router.get("/readyz") { _, _ in try await ready() }
        router.get("/metrics") { _, _ in await MetricsEndpoint.response(metrics, queue: store) }
        router.get("/openapi.json") { _, _ in APIResponse.text(OpenAPIDocument.json, contentType: "application/json") }
        router.post("/v1/compositions") { request, context in try await create(request, context: context) }
        router.get("/v1/compositions") { request, context in try await list(request, context: context) }
        router.get("/v1/compositions/{id}") { request, context in try await show(request, context: context) }
        router.get("/v1/compositions/{id}/report") { request, context in try await reportPage(request, context: context) }
        router.delete("/v1/compositions/{id}") { request, context in try await cancel(request, context: context) }
        router.post("/v1/plans") { request, context in try await plan(request, context: context) }
        addTwilioRoutes(to: router)
        return router
    }

    private func caller(_ request: Request, needs grant: Grant) async throws -> Caller {
        let caller = try await verifier.caller(authorization: request.headers[.authorization])
        try TokenVerifier.require(grant, of: caller)
        return caller
    }

    private func body(_ request: Request) async throws -> Data {
        var request = request
        let buffer = try await request.collectBody(upTo: CompositionRequest.maxBodyBytes)
        return Data(buffer.readableBytesView)
    }

    /// Parses the body and works out the plan as compose would: a request is accepted only if compose would accept it.
    /// `listening` runs the speaker pass for a layout that follows the speaker (a dry run shows the turns
    /// compose will); a composition's checks skip it, as the worker's compose runs it again anyway.
    private func plannedRequest(_ request: Request, listening: Bool = false) async throws -> (CompositionRequest, PlanDocument) {
        let parsed = try CompositionRequest.parse(try await body(request), roots: roots, storage: storage, callbacks: callbacks, tables: tables)
        return (parsed, try await check(parsed, listening: listening))
    }

    /// Works out the plan of a parsed request as compose would (see ``plannedRequest(_:listening:)``).
    func check(_ parsed: CompositionRequest, listening: Bool = false) async throws -> PlanDocument {
        // Inline documents are checked from scratch files of this request's, removed whatever happens.
        var options = parsed.options
        var scratches: [URL] = []
        defer { for url in scratches { try? FileManager.default.removeItem(at: url) } }
        var fields: [(field: String, path: String)] = []
        for document in parsed.inline {
            let url = try tables.scratch(document.data, field: document.field)
            scratches.append(url)
            fields.append((document.field, url.path))
            switch document.field {
            case "options.prices": options.prices = url.path
            case "options.tiers": options.tiers = url.path
            case "VideoLayout": options.layout = Layout.twilioPrefix + url.path
            default: options.edits = url.path
            }
        }
        do {
            let capture: String = parsed.capturePath
            let checked: ComposeOptions = options
            // The speaker pass decodes microphones: C work, on a thread of its own, not the cooperative pool's.
            let document: PlanDocument = try await onOwnThread(named: "stagemix-plan") { () throws -> PlanDocument in
                let speakers: (@Sendable (Capture, StageTimeline) throws -> SpeakerTimeline)? = listening ? SpeakerAnalysis.planningPass() : nil
                // A composition that follows its recording is checked against the capture as far as it is known.
                let planned = try CompositionInput.plan(capture: CaptureSources.source(at: capture), options: checked,
                                                        inProgress: checked.follow == true ? .knownSoFar : .refuse, speakers: speakers)
                // The speaker pass read the microphones: a store that failed a read is not a silent microphone.
                if let failure = planned.0.objects?.failure { throw BadInput(CaptureError(problems: [], storage: failure)) }
                return planned.2
            }
            return document
        } catch let error as OptionError {
            // An option that does not fit the layout (a rendition's frame rate): the option's field.
            throw CompositionRequest.invalid(error)
        } catch let error as BadInput where (error.underlying as? CaptureError)?.storage?.isTransient == true {
            // The capture's store is out of reach or failing: asking again later may work, so not a 422.
            throw Problem.unavailable("\(error); try again later")
        } catch {
            // The tables the request gave inline are files now: name the field, not the file.
            var detail = "\(error)"
            var field = "capture"
            for (name, path) in fields {
                guard detail.contains(path) else { continue }
                detail = detail.replacingOccurrences(of: path, with: name)
                field = name
            }
            // The problem already names its field (`options.edits: $.exclude[0]...`): not twice.
            if detail.hasPrefix("\(field): ") { detail.removeFirst(field.count + 2) }
            throw Problem.invalid(field, CompositionRequest.apiWords(detail))
        }
    }

    func create(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await caller(request, needs: .compose)
        let (parsed, _) = try await plannedRequest(request)
        let now = Date().timeIntervalSince1970
        switch try await enqueue(parsed, caller: caller, logger: context.logger) {
        case .created(let composition, let job):
            return APIResponse.json(CompositionView(composition, job: job, now: now), status: .created,
                                    headers: [.location: "/v1/compositions/\(composition.id)"])
        case .existing(let composition, let job):
            return APIResponse.json(CompositionView(composition, job: job, now: now), status: .ok,
                                    headers: [.location: "/v1/compositions/\(composition.id)"])
        case .keyReused(let composition):
            let reason = "this key already made composition \(composition.id) from a different request"
            throw Problem(status: 422, title: "Idempotency key reused", detail: "idempotencyKey: \(reason)",
                          type: "idempotency-key-reused", field: "idempotencyKey", reason: reason)
        }
    }

    /// Queues a checked request: its inline documents are kept where the job will read them
    /// (content-addressed, so the same document asked for twice is one file), then the composition and
    /// its job are made, or the earlier one the same request made is found. A Twilio-shaped request has
    /// no idempotency: each makes a composition of its own, as Twilio's does.
    func enqueue(_ parsed: CompositionRequest, caller: Caller, logger: Logger,
                 twilio: TwilioParameters? = nil) async throws -> CompositionCreation {
        for document in parsed.inline { try tables.keep(document.data, at: document.path, field: document.field) }
        let requestKey = twilio == nil ? parsed.requestKey(apiKey: caller.apiKey) : SHA256Digest.hex(of: Data(UUID().uuidString.utf8))
        let draft = CompositionDraft(
            apiKey: caller.apiKey, requestKey: requestKey, requestDigest: parsed.digest,
            idempotencyKey: parsed.idempotencyKey, callbackURL: parsed.callbackURL, capture: parsed.capture, layout: parsed.layout,
            spec: JobSpec(capture: parsed.capturePath, out: outputRoot.description, options: parsed.options), maxAttempts: maxAttempts,
            twilio: twilio)
        let outcome: CompositionCreation
        do {
            outcome = try await store.createComposition(draft, outputRoot: outputRoot)
        } catch let error as QueueError {
            throw Problem.unavailable("the queue refused the composition: \(error)")
        }
        if case .created(let composition, _) = outcome {
            var logger = logger
            logger[metadataKey: "composition"] = "\(composition.id)"
            logger.info("composition queued", metadata: ["capture": "\(composition.capture)", "apiKey": "\(caller.apiKey)"])
        }
        return outcome
    }

    private func find(_ request: Request, context: BasicRequestContext, caller: Caller) async throws -> (Composition, Job) {
        let id = context.parameters.get("id") ?? ""
        guard id.count <= 64, let found = try await store.composition(id: id, apiKey: caller.apiKey) else {
            throw Problem.notFound("no composition \(id.prefix(64)) for this API key")
        }
        return found
    }

    func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await caller(request, needs: .read)
        let (composition, job) = try await find(request, context: context, caller: caller)
        return APIResponse.json(CompositionView(composition, job: job, now: Date().timeIntervalSince1970))
    }

    /// `report.html` of a completed composition published to a local folder. Opened from here its player
    /// has no MP4 beside it (the page's media are the output's files, read where it was published).
    func reportPage(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await caller(request, needs: .read)
        let (composition, job) = try await find(request, context: context, caller: caller)
        guard job.state == .succeeded else {
            // It exists; its page does not yet (or will not: failed, cancelled).
            throw Problem.conflict("composition \(composition.id) has no report: it is \(CompositionView.status(of: job.state))")
        }
        guard let folder = composition.destination.folder else {
            throw Problem.notFound("composition \(composition.id) was published to \(composition.destination); its page is \(composition.destination.location(of: OutputFiles.reportPage))")
        }
        let path = folder.appendingPathComponent(OutputFiles.reportPage).path
        guard let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue else {
            throw Problem.notFound("composition \(composition.id) has no report.html (composed by an earlier version)")
        }
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .contentSecurityPolicy: ReportPage.contentSecurityPolicy]
        headers[.contentLength] = "\(size)"
        // Streamed from disk on the file I/O threads, whatever its size.
        return Response(status: .ok, headers: headers, body: try await FileIO(threadPool: .singleton).loadFile(path: path, context: context))
    }

    func list(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await caller(request, needs: .read)
        let query = request.uri.queryParameters
        var states = JobState.allCases
        if let status = query["status"].map(String.init) {
            guard let chosen = CompositionView.states(for: status) else {
                throw Problem.invalid("status", "must be one of \(CompositionView.statuses.joined(separator: ", "))")
            }
            states = chosen
        }
        var limit = 20
        if let text = query["limit"] {
            guard let n = Int(text), (1...100).contains(n) else { throw Problem.invalid("limit", "must be a whole number from 1 to 100") }
            limit = n
        }
        let cursor = try query["cursor"].map { text throws(Problem) in try PageCursor(String(text)) }
        let rows = try await store.compositions(apiKey: caller.apiKey, states: states,
                                                after: cursor.map { ($0.createdAt, $0.id) }, limit: limit + 1)
        let now = Date().timeIntervalSince1970
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { PageCursor(createdAt: $0.0.createdAt, id: $0.0.id).text } : nil
        return APIResponse.json(CompositionPage(data: page.map { CompositionView($0.0, job: $0.1, now: now) }, nextCursor: next))
    }

    func cancel(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let caller = try await caller(request, needs: .cancel)
        let (composition, _) = try await find(request, context: context, caller: caller)
        let action = try await store.cancel(id: composition.id)
        guard let (after, job) = try await store.composition(id: composition.id, apiKey: caller.apiKey) else {
            throw Problem.notFound("no composition \(composition.id)")
        }
        // A chunked composition cancelled with nothing of it running: no worker will see it end.
        if action == .cancelled { DispatchQueue.global().async { job.removeEndedChunkWork() } }
        var logger = context.logger
        logger[metadataKey: "composition"] = "\(composition.id)"
        let view = CompositionView(after, job: job, now: Date().timeIntervalSince1970)
        switch action {
        case .cancelled:
            logger.info("composition cancelled")
            return APIResponse.json(view)
        case .flagged:
            logger.info("composition cancel requested; the worker stops it")
            return APIResponse.json(view, status: .accepted)
        case .alreadyFinished:
            throw Problem.conflict("composition \(composition.id) is already \(view.status)")
        }
    }

    func plan(_ request: Request, context: BasicRequestContext) async throws -> Response {
        _ = try await caller(request, needs: .compose)
        let (_, document) = try await plannedRequest(request, listening: true)
        return APIResponse.json(document)
    }

    func ready() async throws -> Response {
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await store.ping() }
                group.addTask {
                    try await Task.sleep(for: .seconds(3))
                    throw Problem.unavailable("the queue did not answer within 3 seconds")
                }
                try await group.next()
                group.cancelAll()
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.unavailable("the queue is not reachable: \(error)")
        }
        return APIResponse.json(["status": "ready"])
    }

}
