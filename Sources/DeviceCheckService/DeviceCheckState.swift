import DeviceCheckModel
import TrustSuiteSupport
import Foundation

/// The DeviceCheck model behind an actor: each request is applied whole, in
/// turn, so two clients updating one device never lose an update. With a
/// state file, an update is answered once its journal line is on disk
/// (`DeviceCheckJournal`); updates that arrive while a batch is being synced
/// share the next sync (group commit), so a busy service pays one
/// `fdatasync` per batch, not per request.
///
/// Fail-stop: when the journal or a compaction cannot be written, the
/// waiting updates get the error (500), nothing more is applied or
/// answered from memory, and `failures` yields the error so the service
/// stops; a restart recovers the last durable state.
actor DeviceCheckState {
    private var server: DeviceCheckServer
    private var journal: DeviceCheckJournal?
    /// Journal lines of updates applied but not yet written.
    private var pending: [UInt8] = []
    /// Updates applied, and updates known to be on disk.
    private var applied = 0
    private var saved = 0
    private var writing = false
    private var compacting = false
    private var failure: StateFileError?
    private var waiters: [(version: Int, continuation: CheckedContinuation<Result<Void, StateFileError>, Never>)] = []
    /// Yields once, when the state can no longer be saved.
    nonisolated let failures: AsyncStream<StateFileError>
    private let failureContinuation: AsyncStream<StateFileError>.Continuation

    init(stateFile: URL?, compactionFloor: Int = DeviceCheckJournal.defaultCompactionFloor) throws {
        (failures, failureContinuation) = AsyncStream.makeStream(of: StateFileError.self)
        guard let stateFile else {
            server = DeviceCheckServer()
            journal = nil
            return
        }
        do throws(StateFileError) {
            let (journal, states) = try DeviceCheckJournal.open(stateFile.path, compactionFloor: compactionFloor)
            self.journal = journal
            server = DeviceCheckServer(states: states)
        } catch {
            throw DeviceCheckServiceError(error.description)
        }
    }

    deinit { journal?.closeJournal() }

    /// Every device's state (for tests).
    var states: [String: DeviceCheckServer.State] { server.states }

    func handle(
        _ endpoint: DeviceCheckServer.Endpoint, request: [String: DeviceCheckServer.Field], team: String,
        authorized: Bool, at time: Date
    ) async throws(StateFileError) -> DeviceCheckServer.Response {
        if let failure { throw failure }
        let (response, changed) = server.apply(endpoint, request: request, team: team, authorized: authorized, at: time)
        guard journal != nil, let changed, let state = server.states[changed] else { return response }
        pending += DeviceCheckJournal.line(key: changed, state: state)
        applied += 1
        let version = applied
        if !writing {
            writing = true
            Task { await self.writeBatches() }
        }
        let result = await withCheckedContinuation { waiters.append((version, $0)) }
        try result.get()
        return response
    }

    /// Writes the pending lines, batch after batch, until every applied
    /// update is on disk, answering the waiters each batch covers; compacts
    /// between batches when the journal has outgrown the snapshot.
    private func writeBatches() async {
        while saved < applied, failure == nil, let journal {
            let version = applied
            let batch = pending
            pending = []
            let result = await Self.append(batch, to: journal.descriptor, path: journal.journal)
            switch result {
            case .success: self.journal?.appended(batch.count)
            case .failure(let error): fail(error)
            }
            saved = version
            let covered = waiters.filter { $0.version <= version }
            waiters.removeAll { $0.version <= version }
            for waiter in covered { waiter.continuation.resume(returning: result) }
            compactIfDue()
        }
        writing = false
    }

    /// Runs off the actor, so requests are applied while a batch syncs.
    private nonisolated static func append(_ bytes: [UInt8], to descriptor: Int32, path: String) async -> Result<Void, StateFileError> {
        DeviceCheckJournal.append(bytes, to: descriptor, path: path)
    }

    private func compactIfDue() {
        guard !compacting, failure == nil, var journal, journal.wantsCompaction else { return }
        do throws(StateFileError) {
            try journal.rotate()
        } catch {
            fail(error)
            return
        }
        self.journal = journal
        compacting = true
        // A copy of the states at the rotation: every line of the rotated
        // journal is in it (the lines after it go to the new journal).
        let states = server.states, path = journal.snapshot
        Task.detached {
            let result = DeviceCheckJournal.writeSnapshot(states, to: path)
            await self.compacted(result)
        }
    }

    private func compacted(_ result: Result<Int, StateFileError>) {
        compacting = false
        do throws(StateFileError) {
            try journal?.compacted(snapshotBytes: result.get())
        } catch {
            fail(error)
        }
    }

    /// Stops applying and answering; every waiting update gets the error.
    private func fail(_ error: StateFileError) {
        guard failure == nil else { return }
        failure = error
        for waiter in waiters { waiter.continuation.resume(returning: .failure(error)) }
        waiters.removeAll()
        failureContinuation.yield(error)
        failureContinuation.finish()
    }

    /// Waits until every compaction started has finished (for tests).
    func settle() async {
        while compacting || writing { await Task.yield() }
    }
}
