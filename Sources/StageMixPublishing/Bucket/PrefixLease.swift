import Foundation
import StageMixStorage

/// This run's hold on a bucket prefix while it writes an output there: the ``PartialNote`` at
/// `<prefix>/.stagemix-partial`, taken with a conditional write and renewed by a heartbeat thread
/// every `leaseSeconds / 6`. A renewal that finds the note changed means another run took the prefix
/// (this one had stopped answering for a whole lease): from then on ``check()`` fails, nothing more
/// of this run goes up, and nothing under the prefix is deleted by it.
final class PrefixLease: @unchecked Sendable {
    let client: S3Client
    /// The note's key.
    let location: S3Location
    /// The output's prefix, as messages name it.
    let shown: String
    /// True when the note was written where none was (not taken over from a dead run).
    let createdFresh: Bool

    private let condition = NSCondition()
    private let renewing = NSLock()
    private var note: PartialNote
    private var etag: String
    private var lastRenewal: Date
    private var lost: OutputRefusal?
    private var stopped = false
    private var heartbeat: Thread?
    /// Signalled when the heartbeat thread has ended.
    private let heartbeatEnded = DispatchSemaphore(value: 0)

    private init(client: S3Client, location: S3Location, shown: String, note: PartialNote, etag: String, createdFresh: Bool) {
        self.client = client
        self.location = location
        self.shown = shown
        self.note = note
        self.etag = etag
        self.createdFresh = createdFresh
        lastRenewal = Date()
    }

    /// Takes the prefix: writes the note where there is none, or over a dead run's; refuses with
    /// ``OutputRefusal/Reason/busy`` while a live run's note is there.
    static func acquire(client: S3Client, note location: S3Location, shown: String) throws -> PrefixLease {
        let mine = PartialNote.forThisRun()
        let body = try mine.encoded()
        // Each turn either ends or sees the note change hands; a few turns are a crowd of dead runs' takers.
        for _ in 0..<8 {
            do {
                let written = try client.put(location, body: body, contentType: "application/json", condition: .absent).wait()
                return PrefixLease(client: client, location: location, shown: shown, note: mine, etag: written.etag, createdFresh: true)
            } catch let error as S3Error where error.isPreconditionFailed {}
            guard let there = try client.getVersioned(location).wait() else { continue }
            let theirs = PartialNote.decoded(there.data)
            if theirs?.run == mine.run {
                // Our own write, answered 412 only because a retry of it found it landed.
                return PrefixLease(client: client, location: location, shown: shown, note: mine, etag: there.etag, createdFresh: true)
            }
            if let theirs, theirs.isLive() { throw busy(theirs, shown) }
            do {
                let written = try client.put(location, body: body, contentType: "application/json", condition: .matching(there.etag)).wait()
                return PrefixLease(client: client, location: location, shown: shown, note: mine, etag: written.etag, createdFresh: false)
            } catch let error as S3Error where error.isPreconditionFailed {}
        }
        throw OutputRefusal(.busy, "--out \(shown): other StageMix runs keep taking this prefix; wait for them, or choose another prefix")
    }

    static func busy(_ note: PartialNote, _ shown: String) -> OutputRefusal {
        OutputRefusal(.busy, "--out \(shown): another StageMix run is writing an output there (\(note.describeOwner())); "
            + "nothing there was changed. Wait for it to finish, or choose another prefix")
    }

    /// Renews the note every sixth of the lease until ``release(deleting:)``.
    func startHeartbeat() {
        let thread = Thread { [self] in
            condition.lock()
            defer {
                condition.unlock()
                heartbeatEnded.signal()
            }
            while !stopped && lost == nil {
                _ = condition.wait(until: Date().addingTimeInterval(PartialNote.leaseSeconds / 6))
                if stopped || lost != nil { break }
                condition.unlock()
                try? renew()
                condition.lock()
            }
        }
        thread.name = "stagemix-prefix-lease"
        heartbeat = thread
        thread.start()
    }

    /// Fails once another run has taken the prefix; renews first when the last renewal is a third of
    /// a lease old, so that whatever follows (an upload, the marker) is done while the note is ours.
    func check() throws {
        let (failure, age) = condition.withLock { (lost, Date().timeIntervalSince(lastRenewal)) }
        if let failure { throw failure }
        if age > PartialNote.leaseSeconds / 3 { try renew() }
    }

    /// Renews now, whatever the last renewal's age: before what only the prefix's holder may do (the
    /// marker, replacing an earlier output), so that a note taken from this run is seen then.
    func confirm() throws { try renew() }

    /// Writes the note again with a new heartbeat, only if it is still the version this run wrote.
    /// One renewal at a time (the heartbeat's and a confirmation never race each other's ETag).
    func renew() throws {
        renewing.lock()
        defer { renewing.unlock() }
        let (current, expected) = condition.withLock { (note, etag) }
        if let failure = condition.withLock({ lost }) { throw failure }
        var next = current
        next.heartbeatAt = PartialNote.wholeSeconds(Date())
        do {
            let written = try client.put(location, body: try next.encoded(), contentType: "application/json", condition: .matching(expected)).wait()
            condition.withLock {
                note = next
                etag = written.etag
                lastRenewal = next.heartbeatAt
            }
        } catch let error as S3Error where error.isPreconditionFailed {
            // Ours still if the note there carries this run's token: a retry of this very write found it landed.
            if let there = try client.getVersioned(location).wait(), let theirs = PartialNote.decoded(there.data),
               theirs.run == current.run, theirs.abandoned != true {
                condition.withLock {
                    note = theirs
                    etag = there.etag
                    lastRenewal = theirs.heartbeatAt
                }
                return
            }
            let failure = OutputRefusal(.busy, "--out \(shown): another StageMix run took this prefix over while this one was writing "
                + "(this run had not renewed its note for a whole lease); nothing more of this run was written there")
            condition.withLock { lost = failure }
            throw failure
        }
    }

    /// True once another run has taken the prefix.
    var isLost: Bool { condition.withLock { lost != nil } }

    /// Stops the heartbeat. When `deleting`, removes the note if it is still this run's; otherwise
    /// marks it abandoned, so that the next run takes over what this one left at once.
    func release(deleting: Bool) {
        let (wasStopped, running) = condition.withLock {
            defer { stopped = true; condition.broadcast() }
            return (stopped, heartbeat != nil)
        }
        // A renewal under way ends first: the note's last version is then known here.
        if !wasStopped && running { heartbeatEnded.wait() }
        renewing.lock()
        defer { renewing.unlock() }
        let (mine, expected) = condition.withLock { (note, etag) }
        guard !isLost else { return }
        if deleting {
            if let there = try? client.getVersioned(location).wait(), PartialNote.decoded(there.data) == mine {
                try? client.delete(location).wait()
            }
        } else if !wasStopped {
            var left = mine
            left.abandoned = true
            if let body = try? left.encoded() {
                _ = try? client.put(location, body: body, contentType: "application/json", condition: .matching(expected)).wait()
            }
        }
    }
}
