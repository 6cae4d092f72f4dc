import Foundation
import SyncKernel

/// A domain's part in a simulation: the actions a person takes on it, and what must hold
/// once every queue has drained.
///
/// A workload keeps its own model of what each device acknowledged (a local write that
/// returned), so that it can tell a write lost from one another device overwrote. A new
/// instance serves each run; a run performs one step at a time, so a workload needs no
/// locking of its own.
public protocol SimulationWorkload: AnyObject, Sendable {
    /// Its name in traces: one word.
    var name: String { get }
    /// Draws an action for `device`: one line of text without spaces at its ends, which
    /// `perform` reads back.
    func draw(device: Int, using random: inout SeededRandom) -> String
    /// Performs `action` on `device`, as a person would through the plugin's API. Throws
    /// when the device refused it (offline, a full disk): that is not a violation, and the
    /// model must not count it as acknowledged.
    func perform(_ action: String, on device: SimulatedDevice, in world: SimulationWorld) async throws
    /// Checks, once every queue has drained, that nothing acknowledged was lost and that
    /// every device shows what the server has, as the domain's conflict policies say.
    func check(_ world: SimulationWorld) async throws -> [SimulationViolation]
    /// Checks what must hold after every step, faults or not (a cap never passed, say).
    func checkStep(_ world: SimulationWorld) async throws -> [SimulationViolation]
    /// Checks what `device` shows right now, between two of its requests and after every
    /// step: a person may look at any moment, so it must be something the domain can show.
    func checkShown(on device: SimulatedDevice) async throws -> [SimulationViolation]
    /// Another account signed in on `device`: what the device kept of the workloads'
    /// account and does not sync (its own choices) is gone, by design.
    func anotherAccountSignedIn(on device: Int)
    /// Whether its checks allow for a server restored from a backup (`serverRestored()`):
    /// only runs whose every workload does draw restores.
    var followsRestores: Bool { get }
    /// The server went back to the data of a backup: the writes it acknowledged since are
    /// lost by design, and a write some device made before now may or may not be on it.
    func serverRestored()
    /// Whether `operation`, a write of this workload's plugin that a device left dead once
    /// the world settled, is one a person really must see (`ferry status` names it): the
    /// server can never take it, by design. Any other dead write is a violation
    /// (`needs-person`).
    func needsPerson(_ operation: QueuedOperation) -> Bool
}

extension SimulationWorkload {
    /// Nothing to check between steps.
    public func checkStep(_ world: SimulationWorld) async throws -> [SimulationViolation] { [] }

    /// Its checks do not allow for a restore.
    public var followsRestores: Bool { false }

    /// Nothing to forget.
    public func serverRestored() {}

    /// Every write the world leaves dead is a violation.
    public func needsPerson(_ operation: QueuedOperation) -> Bool { false }

    /// Nothing to check between requests.
    public func checkShown(on device: SimulatedDevice) async throws -> [SimulationViolation] { [] }

    /// Nothing kept on a device but what syncs.
    public func anotherAccountSignedIn(on device: Int) {}
}

/// An invariant that failed, and how.
public struct SimulationViolation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Which invariant: `applied-twice`, `entity-order`, `torn-write`, `slow-resend`,
    /// `signed-out`, `not-drained`, `needs-person`, `lost-write`, `diverged`, `garbled`,
    /// `busy-loop`, `stale-offline`, `damaged-store`, or one a workload names.
    public var invariant: String
    /// What was seen.
    public var detail: String

    public init(_ invariant: String, _ detail: String) {
        self.invariant = invariant
        self.detail = detail
    }

    public var description: String { "\(invariant): \(detail)" }
}
