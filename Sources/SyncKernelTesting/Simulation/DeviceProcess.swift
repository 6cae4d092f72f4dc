import Foundation
import SyncKernel
import Synchronization

/// One process on a simulated device: a Ferry runtime on the device's store, its engine,
/// and a link of its own to the network. A fault can kill it in the middle of a request;
/// `stop` then lets that request unwind once nothing of the process can touch the store.
final class DeviceProcess: @unchecked Sendable {
    /// How a piece of work of the process ended.
    enum End: Sendable {
        case finished
        case failed(String)
        case crashed
    }

    let runtime: FerryRuntime
    let engine: SyncEngine
    /// Its link's number on the device's network.
    let link: Int
    private let network: SimulatedNetwork
    /// The requests that killed the process (a pass may send several at once), each
    /// suspended until the process is stopped; `over` once `stop` let them go.
    private let dying = Mutex<(over: Bool, requests: [CheckedContinuation<Void, Never>])>((false, []))
    /// The step waiting for the process's work to end.
    private let waiting = Mutex<CheckedContinuation<End, Never>?>(nil)
    /// The task of the last work.
    private var task: Task<Void, Never>?

    init(runtime: FerryRuntime, owner: LeaseOwner, link: Int, network: SimulatedNetwork) {
        self.runtime = runtime
        self.engine = SyncEngine(runtime: runtime, owner: owner)
        self.link = link
        self.network = network
    }

    /// Runs `work` (a pass, a person's command) in this process; returns how it ended,
    /// `crashed` as soon as a fault killed the process in one of its requests.
    func run(_ work: @escaping @Sendable () async throws -> Void) async -> End {
        await withCheckedContinuation { continuation in
            waiting.withLock { $0 = continuation }
            task = Task.apart {
                let end: End
                do {
                    try await work()
                    end = .finished
                } catch {
                    end = .failed("\(error)")
                }
                self.endWork(end)
            }
        }
    }

    /// Tells the step waiting for the work how it ended; false when none was waiting.
    @discardableResult
    private func endWork(_ end: End) -> Bool {
        guard let step = waiting.withLock({ $0.take() }) else { return false }
        step.resume(returning: end)
        return true
    }

    /// A fault killed the process in the middle of a request: it dies here, its work ends
    /// as crashed, and this task waits until `stop` lets it unwind.
    ///
    /// What else the work was doing beside this request (another operation of its batch
    /// matching a title on TMDB, a download) reaches neither the network nor the store from
    /// now on, as in a process that died: a request throws, a read or a write throws.
    /// Left running until `stop`, it reached the server or not depending on how threads
    /// were scheduled, and read the store while `stop` closed it.
    ///
    /// A request that no step waits for (a check between steps asked the device) only fails.
    func dieInFlight() async {
        guard waiting.withLock({ $0 != nil }) else { return }
        network.end(link)
        try? runtime.store.close()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let over = dying.withLock { dying in
                if !dying.over { dying.requests.append(continuation) }
                return dying.over
            }
            // A request that died as the process was ending has nothing to wait for.
            if over { return continuation.resume() }
            endWork(.crashed)
        }
    }

    /// The process ends: its store closes, then its last work, which may have died in its
    /// requests while other parts of it still ran, is let go and awaited. Nothing of the
    /// process runs once this returns: its reads and writes since the close threw, and its
    /// requests reach nothing.
    func stop() async {
        network.end(link)
        try? runtime.store.close()
        let requests = dying.withLock { dying in
            defer { dying = (true, []) }
            return dying.requests
        }
        for request in requests { request.resume() }
        await task?.value
        task = nil
    }
}
