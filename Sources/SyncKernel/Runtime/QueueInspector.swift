import Foundation
import GRDB

/// Answers "what is waiting, and why?" for `ferry status` and `ferry queue`.
public struct QueueInspector: Sendable {
    let runtime: FerryRuntime

    /// Inspects the queue of `runtime`.
    public init(runtime: FerryRuntime) {
        self.runtime = runtime
    }

    /// The state of one plugin's queue.
    public struct PluginStatus: Sendable, Codable, Equatable {
        /// The plugin's name.
        public var plugin: String
        /// Operations first in line for their entity (due, or waiting for something).
        public var pending = 0
        /// Operations behind an earlier one on the same entity.
        public var queued = 0
        /// Operations being sent now.
        public var inFlight = 0
        /// Dead letters.
        public var dead = 0
        /// Operations waiting for a person to resolve their conflict.
        public var conflicts = 0
        /// Pending operations whose last send got no answer.
        public var waitingForConnectivity = 0
        /// Pending operations waiting out a backoff after a failure.
        public var backingOff = 0
        /// Pending operations that need an unmetered network while the link is metered.
        public var waitingForUnmetered = 0
        /// Pending operations that wait for the plugin's configuration to change.
        public var waitingForConfiguration = 0
        /// Pending operations the signed-in account does not send: queued by another
        /// account, or while nobody was signed in.
        public var heldForAccount = 0
        /// Whether the plugin's queue is held for a login.
        public var needsLogin = false
        /// When the plugin last pulled successfully, if ever.
        public var lastSync: Date?
    }

    /// The whole runner's state.
    public struct Status: Sendable, Codable, Equatable {
        /// Connectivity as the runtime's monitor sees it now.
        public var connectivity: ConnectivityState
        /// Each enabled plugin's queue, in registry order.
        public var plugins: [PluginStatus]
    }

    /// The state of every enabled plugin's queue and of connectivity; the counts come from
    /// counters the store keeps, so this stays fast however long the queue is.
    public func status() async throws -> Status {
        let names = runtime.registry.names
        let signedIn = await runtime.credentials.account()
        let now = runtime.clock.now()
        let connectivity = await runtime.connectivity.current()
        let metered = connectivity.reachable && connectivity.metered
        let plugins = try await runtime.store.read { db in
            try names.map { name -> PluginStatus in
                var status = PluginStatus(plugin: name)
                // Counters kept by triggers (kernel.v1.operation_counts): a few rows, whatever the queue's length.
                let rows = try Row.fetchAll(
                    db.cachedStatement(
                        sql: "SELECT state, SUM(n) AS n FROM kernel_operation_counts WHERE plugin = ? GROUP BY state"
                    ),
                    arguments: [name]
                )
                if let signedIn {
                    status.heldForAccount =
                        try Int.fetchOne(
                            db.cachedStatement(
                                sql:
                                    "SELECT SUM(n) FROM kernel_operation_counts WHERE plugin = ? AND state = 'pending' AND account != ?"
                            ),
                            arguments: [name, signedIn]
                        ) ?? 0
                }
                for row in rows {
                    let count: Int = row["n"]
                    switch OperationState(rawValue: row["state"]) {
                    case .pending: status.pending = count
                    case .queued: status.queued = count
                    case .inFlight: status.inFlight = count
                    case .dead: status.dead = count
                    case .conflict: status.conflicts = count
                    case nil: break
                    }
                }
                // Waiting operations are few; the partial index kernel_operations_waiting holds only them.
                status.waitingForConnectivity =
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql:
                                "SELECT COUNT(*) FROM kernel_operations WHERE state = 'pending' AND plugin = ? AND waiting_for = 'connectivity'"
                        ),
                        arguments: [name]
                    ) ?? 0
                status.backingOff =
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql:
                                "SELECT COUNT(*) FROM kernel_operations WHERE state = 'pending' AND plugin = ? AND waiting_for = 'retry' AND next_attempt_at > ?"
                        ),
                        arguments: [name, now.timeIntervalSince1970]
                    ) ?? 0
                status.waitingForConfiguration =
                    try Int.fetchOne(
                        db.cachedStatement(
                            sql:
                                "SELECT COUNT(*) FROM kernel_operations WHERE state = 'pending' AND plugin = ? AND waiting_for = 'configuration'"
                        ),
                        arguments: [name]
                    ) ?? 0
                if metered {
                    status.waitingForUnmetered =
                        try Int.fetchOne(
                            db.cachedStatement(
                                sql:
                                    "SELECT COUNT(*) FROM kernel_operations WHERE state = 'pending' AND plugin = ? AND requires_unmetered = 1"
                            ),
                            arguments: [name]
                        ) ?? 0
                }
                if let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT * FROM kernel_plugin_state WHERE plugin = ?"),
                    arguments: [name]
                ) {
                    status.needsLogin = row["needs_login"]
                    status.lastSync = (row["last_sync_at"] as Double?).map(Date.init(timeIntervalSince1970:))
                }
                return status
            }
        }
        return Status(connectivity: connectivity, plugins: plugins)
    }

    /// Operations, oldest first, optionally of one plugin or state; at most `limit`.
    public func list(
        plugin: String? = nil,
        state: OperationState? = nil,
        limit: Int = 100
    ) async throws -> [QueuedOperation] {
        try await runtime.store.read { db in
            var sql = "SELECT * FROM kernel_operations WHERE 1"
            var arguments: StatementArguments = []
            if let plugin {
                sql += " AND plugin = ?"
                arguments += [plugin]
            }
            if let state {
                sql += " AND state = ?"
                arguments += [state.rawValue]
            }
            sql += " ORDER BY seq LIMIT ?"
            arguments += [limit]
            return try QueuedOperation.fetchAll(db, sql: sql, arguments: arguments)
        }
    }

    /// The operation whose id is `id`, starts with it, ends with it, or whose `shortID`
    /// (the last 8 characters, as `queue list` shows them) starts with it; compared as
    /// text (`%` and `_` are no wildcards).
    ///
    /// - Throws: `not_found` when none matches, `usage` naming the matches when several do.
    public func find(_ id: String) async throws -> QueuedOperation {
        let text = id.lowercased()
        let matches =
            text.isEmpty
            ? []
            : try await runtime.store.read { db in
                try QueuedOperation.fetchAll(db, sql: Self.idLookup, arguments: [text])
            }
        guard let first = matches.first else {
            throw FerryError(.notFound, "no queued operation \(id)", remedy: .listQueue)
        }
        guard matches.count == 1 else {
            let listed = matches.prefix(10).map(\.shortID).joined(separator: ", ")
            throw FerryError(
                .usage,
                "\(id) matches several operations (\(listed)\(matches.count > 10 ? ", …" : "")); give more of the id"
            )
        }
        return first
    }

    /// The operations `find` matches (at most 11, to list 10 and say there are more):
    /// the id starts or ends with the text, or its last 8 characters start with it.
    private static let idLookup = """
        SELECT * FROM kernel_operations
        WHERE substr(id, 1, length(?1)) = ?1 OR substr(id, -length(?1)) = ?1 OR substr(id, -8, length(?1)) = ?1
        ORDER BY seq LIMIT 11
        """

    /// Why an operation is not being sent right now: a sentence, and what a person can do.
    public struct Explanation: Sendable, Equatable, CustomStringConvertible {
        /// The sentence a person reads.
        public let text: String
        /// What a person can do about it, when there is something.
        public let remedy: Remedy?

        init(_ text: String, remedy: Remedy? = nil) {
            self.text = text
            self.remedy = remedy
        }

        /// The sentence.
        public var description: String { text }
    }

    /// Why `operation` is not being sent right now.
    public func explain(_ operation: QueuedOperation) async throws -> Explanation {
        let policy = runtime.outbox.policies.policy(plugin: operation.plugin, kind: operation.kind)
        let attempts = "attempt \(operation.attempts) of \(policy.retry.maxAttempts)"
        switch operation.state {
        case .dead:
            return Explanation(
                "dead after \(operation.attempts) attempt(s): \(operation.lastError ?? "no reason given")",
                remedy: .retryOrDiscard(operation: operation.shortID)
            )
        case .conflict:
            return Explanation("waiting for a conflict to be resolved", remedy: .resolveConflicts)
        case .inFlight:
            return Explanation("being sent by \(operation.leaseOwner ?? "a runner")")
        case .queued:
            let ahead = try await runtime.store.read { db in
                try QueuedOperation.fetchOne(
                    db.cachedStatement(
                        sql: "SELECT * FROM kernel_operations WHERE plugin = ? AND entity = ? AND seq < ? ORDER BY seq LIMIT 1"
                    ),
                    arguments: [operation.plugin, operation.entity, operation.sequence]
                )
            }
            guard let ahead else { return Explanation("queued") }
            return Explanation(
                "blocked behind operation \(ahead.shortID) (\(ahead.kind), \(ahead.state.rawValue)) on the same entity"
            )
        case .pending:
            if let held = await heldForAccount(operation) { return held }
            if let entity = operation.dependsOn, let why = try await waitingForEntity(entity, of: operation) { return why }
            let plugin = operation.plugin
            let held = try await runtime.store.read { db in
                try Bool.fetchOne(
                    db.cachedStatement(sql: "SELECT needs_login FROM kernel_plugin_state WHERE plugin = ?"),
                    arguments: [plugin]
                ) ?? false
            }
            if held { return Explanation("needs login: the session ended", remedy: runtime.signInRemedy) }
            if operation.waitingFor == .configuration {
                return Explanation(
                    "waits for a change of plugins.\(operation.plugin) in \(runtime.configuration.file) (the next `ferry run` after the edit sends it; restart a running one): \(operation.lastError ?? "")"
                )
            }
            let state = await runtime.connectivity.current()
            if !state.reachable { return Explanation("offline: waiting for a connection") }
            if operation.requiresUnmetered && state.metered {
                return Explanation("needs an unmetered network (Wi-Fi or wired); the link is metered")
            }
            let now = runtime.clock.now()
            if operation.nextAttemptAt > now {
                let when = ISO8601DateFormatter().string(from: operation.nextAttemptAt)
                if operation.waitingFor == .connectivity {
                    return Explanation("remote unreachable (\(operation.lastError ?? "")); looking again at \(when)")
                }
                return Explanation("backing off until \(when) (\(attempts)): \(operation.lastError ?? "")")
            }
            return Explanation("ready: the next `ferry run` sends it")
        }
    }
}

extension QueuedOperation {
    /// Enough of the id to name the operation on the command line.
    public var shortID: String { id.shortID }
}

extension UUID {
    /// The last eight characters: the random end of a time-ordered id (its start is the
    /// time, shared by operations queued in the same millisecond).
    public var shortID: String { String(uuidString.lowercased().suffix(8)) }
}

extension QueueInspector {
    /// Why `operation` waits for an account: it was queued under another one, or while
    /// nobody was signed in; nil when the signed-in account sends it.
    private func heldForAccount(_ operation: QueuedOperation) async -> Explanation? {
        guard let signedIn = await runtime.credentials.account(), operation.account != signedIn else { return nil }
        guard let owner = operation.account else {
            if await runtime.credentials.ownsSignedOutWork() {
                return Explanation("made while nobody was signed in; the next sync sends it as the configured account's")
            }
            return Explanation(
                "held: made while nobody was signed in; `ferry auth login` asks whether to keep it for the account that signs in",
                remedy: .signIn
            )
        }
        return Explanation("held for account \(owner): it is sent when that account signs in on this device")
    }

    /// Why `operation` still waits for `entity`, or nil when that entity has left the outbox.
    private func waitingForEntity(_ entity: String, of operation: QueuedOperation) async throws -> Explanation? {
        let plugin = operation.plugin
        let first = try await runtime.store.read { db in
            try QueuedOperation.fetchOne(
                db.cachedStatement(
                    sql: "SELECT * FROM kernel_operations WHERE plugin = ? AND entity = ? ORDER BY seq LIMIT 1"
                ),
                arguments: [plugin, entity]
            )
        }
        guard let first else { return nil }
        if first.state == .dead {
            return Explanation(
                "waits for \(entity), whose \(first.kind) is a dead letter (\(first.lastError ?? "no reason given")); what becomes of that one decides this one",
                remedy: .retryOrDiscard(operation: first.shortID)
            )
        }
        return Explanation(
            "waits for \(entity) to reach the remote first (its \(first.kind) is \(first.state.rawValue)); no attempt is spent"
        )
    }
}
