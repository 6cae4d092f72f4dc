import Foundation
import GRDB
import SyncKernel

/// The invariants a run checks after every step, and the bookkeeping they read.
extension SimulationRun {
    /// Notes the device's queued operations, so that the ledger's keys can be traced back;
    /// after a person's action (`actedAt`), those it added or changed are writes made then.
    mutating func remember(_ device: SimulatedDevice, actedAt: Date? = nil) async {
        // Nothing committed since the last look: the queue, and so all of this, is as it was.
        guard let look = try? Self.look(at: device), rememberedAt[device.index].map({ $0 != look }) ?? true,
            let operations = try? await device.operations()
        else { return }
        rememberedAt[device.index] = look
        var now: [Int64: Written] = [:]
        for operation in operations {
            let key = operation.id.lowercasedString
            queued[key] = (device.index, operation.plugin, operation.entity, operation.sequence)
            if let account = operation.account { world.noteQueued(key, under: account) }
            let before = written[device.index]?[operation.sequence]
            // A write folded into an operation changes its payload, or at least its time.
            let changed = before.map { $0.id != operation.id || $0.payload != operation.payload || $0.queuedAt != operation.createdAt } ?? true
            now[operation.sequence] = (operation.id, operation.payload, operation.createdAt, actedAt.flatMap { changed ? $0 : nil } ?? before?.at)
        }
        written[device.index] = now
    }

    /// No key applied twice; each entity's operations applied in their queue's order; no
    /// change left behind by a server that died before it recorded its answer.
    mutating func checkLedger() async throws {
        let torn = world.ledger.tornWrites
        while tornRead < torn.count {
            let keys = torn[tornRead]
            tornRead += 1
            let origins = keys.compactMap { queued[$0] }.map { "\($0.plugin) \($0.entity)" }
            let device = keys.first.flatMap { queued[$0] }.map { " of device \($0.device)" } ?? ""
            violations.append(
                SimulationViolation("torn-write", "the server died before it recorded its answers to \(keys.count) write(s)\(device) (\(origins.joined(separator: ", "))), yet kept a change they made: a resend runs it again")
            )
        }
        for key in world.ledger.appliedTwice {
            let origin = queued[key].map { " (device \($0.device), \($0.plugin) \($0.entity))" } ?? ""
            violations.append(SimulationViolation("applied-twice", "the server ran the write \(key)\(origin) \(world.ledger.effects(of: key)) times"))
        }
        let order = world.ledger.order
        while orderRead < order.count {
            let key = order[orderRead]
            orderRead += 1
            guard let origin = queued[key.split(separator: ".").first.map(String.init) ?? key] else { continue }
            let entity = "\(origin.device)/\(origin.plugin)/\(origin.entity)"
            if let last = lastApplied[entity], last > origin.seq {
                violations.append(
                    SimulationViolation("entity-order", "device \(origin.device) queued \(origin.plugin) \(origin.entity) #\(origin.seq) before #\(last), but the server ran it after")
                )
            }
            lastApplied[entity] = max(lastApplied[entity] ?? origin.seq, origin.seq)
        }
    }

    /// Checks what a device's store tells, on each device whose store changed (or that
    /// started again) since it was last looked at.
    mutating func checkChangedDevices() async throws {
        for device in world.devices {
            let now = try Self.look(at: device)
            if let last = lookedAt[device.index], last == now { continue }
            lookedAt[device.index] = now
            try await checkConflicts(on: device)
            checkFiles(on: device)
        }
    }

    /// The device's data folder and everything in it are readable by their owner only
    /// (`exposed`): queued payloads, credentials and downloads are nobody else's.
    mutating func checkFiles(on device: SimulatedDevice) {
        for (path, mode) in PrivateFiles.exposed(under: device.directory) {
            violations.append(
                SimulationViolation("exposed", "device \(device.index): \(path) has mode \(String(mode, radix: 8)), open to other users")
            )
        }
    }

    /// Each conflict a device settled under `last_write_wins` kept the write made later: its
    /// own (when a person's action made it, by the device's clock) or the server's (when the
    /// ledger saw the server make it, by the server's), a millisecond apart or more. A
    /// remote deletion wins whatever its time, by design, and is not checked.
    mutating func checkConflicts(on device: SimulatedDevice) async throws {
        let reports = try await device.runtime.store.read { db in try ConflictStore.list(openOnly: false, in: db) }
        for report in reports.reversed() where checkedConflicts.insert(report.id).inserted {
            guard report.policy == .lastWriteWins, ["local", "remote"].contains(report.outcome),
                let remote = report.remote, !report.remoteDeleted, let remoteAt = world.ledger.madeAt(remote),
                let origin = queued[report.operationID.lowercasedString], origin.device == device.index,
                let localAt = written[device.index]?[origin.seq]?.at
            else { continue }
            let kept = report.outcome == "local" ? localAt : remoteAt
            let lost = report.outcome == "local" ? remoteAt : localAt
            guard lost.timeIntervalSince(kept) >= 0.001 else { continue }
            let (winner, loser) = report.outcome == "local" ? ("its own", "the server's") : ("the server's", "its own")
            violations.append(
                SimulationViolation(
                    "last-write-wins",
                    "device \(device.index) kept \(winner) write of \(report.plugin) \(report.kind) \(report.entity), made at \(Self.moment(kept)), over \(loser), made later at \(Self.moment(lost))"
                )
            )
        }
    }

    /// A time as seconds since the world started, to the millisecond.
    static func moment(_ date: Date) -> String {
        String(format: "%.3f s", date.timeIntervalSince(WorldClock.start))
    }

    /// What every device shows is something its domains can show: checked now and, as the
    /// step ran, before each request.
    mutating func checkShown() async throws {
        violations += world.takeObserved()
        for device in world.devices {
            for workload in workloads {
                violations += try await workload.checkShown(on: device).filter { !violations.contains($0) }
            }
        }
    }

    /// The longest a request that got no answer waits before it goes again: the first goes
    /// at once when the remote answers, later ones back off up to this (`RetryDecision`).
    static let longestResendWait: TimeInterval = 15

    /// What each device's link saw: one sign-in a session, a device whose sends found no
    /// session together signing in once for all of them (Kernel v2 2), and not again while
    /// that session stands; and no answer past the device's `sync.max_answer` read
    /// (Kernel v2 7).
    mutating func checkLinks() {
        for device in world.devices {
            for twice in device.network.takeSignInsTwice() {
                violations.append(SimulationViolation("signed-in-twice", "device \(device.index): \(twice)"))
            }
            for past in device.network.takePastCap() {
                violations.append(SimulationViolation("past-max-answer", "device \(device.index): \(past)"))
            }
        }
    }

    /// The life of `device` and its store's stamp now: equal looks mean that nothing
    /// committed to its store in between (stamps of two lives are not comparable).
    static func look(at device: SimulatedDevice) throws -> Look {
        Look(life: device.life, stamp: try device.runtime.store.stamp())
    }

    /// No operation that got no answer waits longer than `longestResendWait` to go again:
    /// looked for on each device whose store changed since (what is looked for is rows, not
    /// the time).
    mutating func checkResends() async throws {
        for device in world.devices {
            let look = try Self.look(at: device)
            if resentLookedAt[device.index] == look { continue }
            resentLookedAt[device.index] = look
            let slow = try await device.runtime.store.read { db in
                try Row.fetchAll(
                    db.cachedStatement(
                        sql: """
                            SELECT plugin, kind, entity, seq, next_attempt_at - scheduled_at AS wait FROM kernel_operations
                            WHERE state = 'pending' AND waiting_for = 'connectivity' AND next_attempt_at - scheduled_at > ?
                            """
                    ),
                    arguments: [Self.longestResendWait + 0.001]
                ).map { row in
                    "\(row["plugin"] as String) \(row["kind"] as String) \(row["entity"] as String) #\(row["seq"] as Int64) got no answer and waits \(Int(row["wait"] as Double)) s to go again"
                }
            }
            for operation in slow {
                violations.append(
                    SimulationViolation("slow-resend", "device \(device.index): \(operation), more than \(Int(Self.longestResendWait)) s")
                )
            }
        }
    }

    /// A short outage ends for the queue soon after it ends for the remote: once the
    /// server can answer again and the device's link is up, a loop with work waiting takes
    /// the remote for unreachable no longer than the cut lasted from its first turn that
    /// found it so, and half a second (the first probe's wait, which doubles from there),
    /// and never longer than the probe's interval (`stale-offline`); a clock set back since
    /// puts the loop's deadlines later by as much. Counted from that first turn when it
    /// came after the cut ended: the simulation's turns come at its sync events, not every
    /// `sync.poll_interval` as the loop asks.
    mutating func checkProbe(of device: SimulatedDevice) async {
        guard device.runsLoop, let since = device.unreachableSince, device.network.isOnline,
            world.answering != nil, (try? await device.hasPendingWork()) == true
        else { return }
        let back = max(since, device.network.lastCut ?? since, world.outageEnded ?? since)
        let cut = back.timeIntervalSince(since)
        let interval = device.runtime.configuration.kernel.network.probeInterval.value
        let allowed = min(cut + SyncEngine.firstProbeDelay, interval) + device.setBack
        let late = world.clock.now.timeIntervalSince(back)
        guard late > allowed + 0.001 else { return }
        violations.append(
            SimulationViolation(
                "stale-offline",
                String(
                    format: "device %d's loop took the remote for unreachable %.3f s after it could answer again, with work waiting, having found it so for %.3f s before: it should have probed again within %.3f s",
                    device.index, late, cut, allowed
                )
            )
        )
    }
}
