import Foundation
public import Logging
import StageMixOptions
import StageMixPipeline
import StageMixPublishing
public import ServiceLifecycle
import StageMixQueue

/// Ends Janus's rooms: about once a second it claims the rooms that have ended (destroyed, or idle for
/// `--janus-idle-seconds`: ``JanusRoomState``) and handles each once: a room that had media and has
/// recordings is imported into a capture under the inputs root and its composition queued as
/// `POST /v1/compositions` would queue it, owned by the key Janus posted with, with the usual webhooks;
/// any other room is recorded as having nothing to compose. The claim is in the database, so any
/// number of `serve` processes may run this; one that dies mid-room leaves its claim to run out, and
/// the next one does the room again (the capture is published over the half-done one, and the
/// composition's idempotency key, the room's id, finds the one made before).
public final class JanusRoomEnding: Service, Sendable {
    let store: any SQLJobStore
    let api: CompositionAPI
    let configuration: JanusConfiguration
    /// How each room is composed (`--janus-composition`); nil: the defaults.
    let settings: CompositionSettings?
    /// `<inputs-root>/janus`: each room's capture is `<room>-<its first event's µs>` in it.
    let captures: URL
    let importer: JanusCaptureImport
    let logger: Logger
    let owner = "janus-\(getpid())-\(UUID().uuidString.prefix(8))"
    /// A room in hand is claimed this long, and the claim renewed well before it runs out.
    static let claimSeconds = 60.0
    static let renewSeconds = 15.0

    init(store: any SQLJobStore, api: CompositionAPI, configuration: JanusConfiguration, settings: CompositionSettings?, inputs: URL,
         logger: Logger) {
        self.settings = settings
        self.store = store
        self.api = api
        self.configuration = configuration
        captures = inputs.appendingPathComponent("janus", isDirectory: true)
        importer = configuration.importStandIn.map(JanusCaptureImports.standIn(copying:)) ?? JanusCaptureImports.recordings
        self.logger = logger
    }

    public func run() async throws {
        await cancelWhenGracefulShutdown {
            var nextPrune = ContinuousClock.now
            while !Task.isCancelled {
                let rooms: [JanusRoom]
                do {
                    rooms = try await self.store.claimEndedJanusRooms(owner: self.owner, idleSeconds: self.configuration.idleSeconds,
                                                                      claimSeconds: Self.claimSeconds, limit: 4)
                } catch {
                    self.logger.warning("cannot look for ended Janus rooms: \(String(reflecting: error))")
                    rooms = []
                }
                for room in rooms { await self.handle(room) }
                if !rooms.isEmpty || ContinuousClock.now >= nextPrune {
                    await self.prune()
                    nextPrune = ContinuousClock.now + .seconds(Self.pruneSeconds)
                }
                if rooms.isEmpty { try? await Task.sleep(for: .seconds(1)) }
            }
        }
    }

    /// Forgets the events of rooms done longer ago than `--janus-keep-days`: after each room handled, and
    /// every ten minutes.
    static let pruneSeconds = 600.0

    func prune() async {
        do {
            let removed = try await store.pruneJanusEvents(keepSeconds: configuration.keepSeconds)
            if removed > 0 { logger.info("forgot \(removed) events of Janus rooms done over \(configuration.keepSeconds / 86400) days ago") }
        } catch {
            logger.warning("cannot forget old Janus events: \(String(reflecting: error))")
        }
    }

    func handle(_ room: JanusRoom) async {
        let logger = roomLogger(room)
        let outcome: (text: String, composition: String?)
        do {
            outcome = try await withThrowingTaskGroup(of: (text: String, composition: String?)?.self,
                                                      returning: (text: String, composition: String?).self) { group in
                group.addTask { try await self.compose(room, logger: logger) }
                // The claim is renewed while the import runs, however long it takes.
                group.addTask {
                    while true {
                        try await Task.sleep(for: .seconds(Self.renewSeconds))
                        guard try await self.store.renewJanusRoomClaim(id: room.id, owner: self.owner, claimSeconds: Self.claimSeconds) else {
                            return nil
                        }
                    }
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let next { return next }
                    logger.warning("lost the claim on the room while handling it; another process does it again")
                }
                return ("failed: the room's handling stopped", nil)
            }
        } catch {
            let reason = (error as? Problem)?.detail ?? "\(error)"
            logger.error("Janus room not composed: \(reason)")
            outcome = ("failed: \(reason)", nil)
        }
        do {
            if try await store.finishJanusRoom(id: room.id, owner: owner, outcome: outcome.text, compositionID: outcome.composition) {
                logger.info("Janus room ended: \(outcome.text)", metadata: ["composition": "\(outcome.composition ?? "none")"])
            }
        } catch {
            // The claim runs out and the room is done again: the composition's idempotency key finds it.
            logger.warning("cannot record the Janus room's end: \(String(reflecting: error))")
        }
    }

    private func roomLogger(_ room: JanusRoom) -> Logger {
        var logger = self.logger
        logger[metadataKey: "janusRoom"] = "\(room.room)"
        logger[metadataKey: "emitter"] = "\(room.emitter)"
        return logger
    }

    /// Imports the room and queues its composition: the outcome, and the composition's id if one was made.
    func compose(_ room: JanusRoom, logger: Logger) async throws -> (text: String, composition: String?) {
        guard room.state.hadMedia else { return ("no-media", nil) }
        let prefix = "videoroom-\(room.room)-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: configuration.recordings.path)) ?? []
        guard names.contains(where: { $0.hasPrefix(prefix) && $0.hasSuffix(".mjr") }) else {
            logger.notice("Janus room had media but \(configuration.recordings.path) holds no \(prefix)*.mjr: nothing to compose")
            return ("no-recordings", nil)
        }
        // The importer reads the room's events as Janus's JSON lines.
        let events = try await store.janusRoomEvents(id: room.id)
        let eventsFile = FileManager.default.temporaryDirectory.appendingPathComponent("stagemix-janus-\(room.id).jsonl")
        try Data(events.map { $0 + "\n" }.joined().utf8).write(to: eventsFile)
        defer { try? FileManager.default.removeItem(at: eventsFile) }

        let capture = captures.appendingPathComponent("\(Self.folderName(room.room))-\(room.firstEventUs)", isDirectory: true)
        try FileManager.default.createDirectory(at: captures, withIntermediateDirectories: true)
        let recordings = JanusRoomRecordings(directory: configuration.recordings, events: eventsFile, room: room.room)
        let importer = self.importer
        // Media conversion is blocking work: a thread of its own, not the cooperative pool.
        try await onOwnThread(named: "stagemix-janus-import") {
            try OutputDestination.folder(capture).publisher(overwrite: true).publishStaged { staging in try importer(recordings, staging) }
        }
        logger.info("Janus room imported", metadata: ["capture": "\(capture.path)"])

        let layout = settings?.layout ?? ComposeOptions.defaultLayout
        let request = CompositionRequest(
            capture: capture.path, capturePath: capture.path, layout: layout,
            options: settings?.options ?? ComposeOptions(layout: layout).normalised(relativeTo: "/"),
            callbackURL: configuration.callbackURL, idempotencyKey: "janus-room-\(room.id)", inline: settings?.inline ?? [])
        _ = try await api.check(request)
        let caller = Caller(apiKey: room.apiKey, grants: [.compose])
        switch try await api.enqueue(request, caller: caller, logger: logger) {
        case .created(let composition, _), .existing(let composition, _), .keyReused(let composition):
            return ("composed", composition.id)
        }
    }

    /// A room id as a folder name: Janus's ids are numbers, or with `string_ids` any text.
    static func folderName(_ room: String) -> String {
        let safe = String(room.prefix(64).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
        return safe == room ? safe : "\(safe)_\(SHA256Digest.hex(of: Array(room.utf8)).prefix(8))"
    }
}
