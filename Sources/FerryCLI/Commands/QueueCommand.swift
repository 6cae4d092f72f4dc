import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry queue`: the outbox, and why each operation waits.
struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Inspect, retry or discard queued operations.",
        subcommands: [List.self, Show.self, Retry.self, Discard.self]
    )

    /// How `show`, `retry` and `discard` take an operation.
    static let idHelp = "The operation id as `ferry queue list` shows it, or its first characters, or the full id."

    struct List: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "List queued operations, oldest first.",
            discussion: Examples.discussion(examples: [
                "ferry queue list", "ferry queue list --state dead",
                "ferry queue list --plugin movies --limit 20 --json",
            ])
        )
        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Only this plugin's operations.", valueName: "plugin")) var plugin: String?
        @Option(help: ArgumentHelp("Only operations in this state.", valueName: "state")) var state: OperationState?
        @Option(help: ArgumentHelp("At most this many.", valueName: "count")) var limit = 100

        func run(in runtime: FerryRuntime) async throws {
            let rows = try await Self.operations(in: runtime, plugin: plugin, state: state, limit: limit)
            if global.json { return try global.output.printJSON(["operations": rows]) }
            if rows.isEmpty { return print("the queue is empty") }
            Output(json: false).table(
                ["ID", "PLUGIN", "KIND", "ENTITY", "STATE", "WHY"],
                rows.map { [$0.shortID, $0.plugin, $0.kind, $0.entity, $0.state, $0.why] }
            )
        }

        /// The operations `queue list` shows (and the live view's `GET /api/queue`), oldest first.
        static func operations(
            in runtime: FerryRuntime,
            plugin: String? = nil,
            state: OperationState? = nil,
            limit: Int = 100
        ) async throws -> [OperationView] {
            let inspector = QueueInspector(runtime: runtime)
            var rows: [OperationView] = []
            for operation in try await inspector.list(plugin: plugin, state: state, limit: limit) {
                rows.append(OperationView(operation, why: try await inspector.explain(operation).rendered))
            }
            return rows
        }
    }

    struct Show: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show one operation and why it is waiting.",
            discussion: Examples.discussion(examples: ["ferry queue show 3f2a9c1e", "ferry queue show 3f2a --json"])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp(QueueCommand.idHelp, valueName: "id")) var id: String

        func run(in runtime: FerryRuntime) async throws {
            let inspector = QueueInspector(runtime: runtime)
            let operation = try await inspector.find(id)
            let view = OperationView(operation, why: try await inspector.explain(operation).rendered)
            if global.json { return try global.output.printJSON(view) }
            let fields: [(String, String)] = [
                ("id", view.id), ("plugin", view.plugin), ("kind", view.kind), ("entity", view.entity),
                ("state", view.state), ("attempts", "\(view.attempts)"),
                ("created", ISO8601DateFormatter().string(from: view.createdAt)),
                ("next attempt", ISO8601DateFormatter().string(from: view.nextAttemptAt)),
                ("last error", view.lastError ?? "-"),
                ("payload", String(decoding: operation.payload.prefix(2000), as: UTF8.self)),
                ("why", view.why),
            ]
            for (name, value) in fields { print("\(name.padded(toWidth: 13)) \(value)") }
        }
    }

    struct Retry: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a dead or waiting operation again now.",
            discussion: Examples.discussion(
                "With --all, every dead letter and every operation waiting out a backoff or for a connection is due now, attempts reset; --plugin and --state narrow it. Operations held for a login stay held until someone signs in.",
                examples: [
                    "ferry queue retry 3f2a9c1e", "ferry queue retry --all --plugin movies",
                    "ferry queue retry --all-dead",
                ]
            )
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp(QueueCommand.idHelp, valueName: "id")) var id: String?
        @Flag(help: "Retry every dead and waiting operation.") var all = false
        @Flag(help: "Retry every dead letter (the same as --all --state dead).") var allDead = false
        @Option(help: ArgumentHelp("With --all: only this plugin's operations.", valueName: "plugin")) var plugin:
            String?
        @Option(help: ArgumentHelp("With --all: only operations in this state.", valueName: "state")) var state:
            RetryableState?

        /// The states `--all --state` retries.
        enum RetryableState: String, ExpressibleByArgument, CaseIterable {
            case dead, pending
        }

        func run(in runtime: FerryRuntime) async throws {
            if all || allDead {
                if let plugin, !runtime.registry.names.contains(plugin) {
                    throw FerryError(
                        .usage,
                        "no enabled plugin \(plugin); the enabled ones are \(runtime.registry.names.joined(separator: ", "))"
                    )
                }
                let states: Set<OperationState> =
                    allDead ? [.dead] : state.map { [$0 == .dead ? .dead : .pending] } ?? [.dead, .pending]
                let count = try await runtime.retryAll(plugin: plugin, states: states)
                if global.json { return try global.output.printJSON(Retried(retried: count, operation: nil)) }
                print("\(count) operation(s) will be sent again by the runner (`ferry run --once` sends them now)")
                return
            }
            guard plugin == nil, state == nil else { throw FerryError(.usage, "--plugin and --state go with --all") }
            guard let id else { throw FerryError(.usage, "give an operation id, or --all, or --all-dead") }
            let retried = try await Self.retry(id, in: runtime)
            if global.json { return try global.output.printJSON(retried) }
            print("\(retried.shortID) will be sent again by the runner (`ferry run --once` sends it now)")
        }

        /// Makes the operation `id` names due again, attempts reset (and so does the live
        /// view's `POST /api/queue/{id}/retry`).
        static func retry(_ id: String, in runtime: FerryRuntime) async throws -> Retried {
            let operation = try await QueueInspector(runtime: runtime).find(id)
            try await runtime.retry(operation)
            return Retried(retried: 1, operation: operation.id.lowercasedString)
        }

        /// What `--json` prints: how many operations are due again, and which one when one was named.
        struct Retried: Encodable {
            let retried: Int
            let operation: String?

            /// The named operation's short id, as people see it.
            var shortID: String { operation.map { String($0.suffix(8)) } ?? "" }
        }
    }

    struct Discard: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Drop an operation for good; the next pull restores the remote's state.",
            discussion: Examples.discussion(examples: [
                "ferry queue discard 3f2a9c1e", "ferry queue discard 3f2a --yes",
            ])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp(QueueCommand.idHelp, valueName: "id")) var id: String
        @Flag(help: "Do not ask for confirmation.") var yes = false

        func run(in runtime: FerryRuntime) async throws {
            let operation = try await QueueInspector(runtime: runtime).find(id)
            try Prompt.confirmOrStop(
                "Discard \(operation.plugin) \(operation.kind) on \(operation.entity)? Its change will never reach the remote, and what exists only because of it (a movie added offline) goes.",
                assumeYes: yes,
                unchanged: "nothing was discarded"
            )
            let discarded = try await Self.discard(operation, in: runtime)
            if global.json { return try global.output.printJSON(discarded) }
            print("discarded \(operation.shortID)")
        }

        /// Drops `operation` for good (and so does the live view's `POST /api/queue/{id}/discard`).
        static func discard(_ operation: QueuedOperation, in runtime: FerryRuntime) async throws -> Discarded {
            try await runtime.discard(operation)
            return Discarded(discarded: operation.id.lowercasedString)
        }

        /// What `--json` prints: the discarded operation's id.
        struct Discarded: Encodable {
            let discarded: String
        }
    }
}

extension OperationState: ExpressibleByArgument {}

/// An operation as `ferry queue` shows it, its payload as the JSON document it is; never
/// includes credentials.
struct OperationView: Encodable {
    let id, shortID, plugin, kind, entity, state, why: String
    let payload: JSONValue
    let attempts: Int
    let createdAt, nextAttemptAt: Date
    let lastError: String?

    init(_ operation: QueuedOperation, why: String) {
        id = operation.id.lowercasedString
        shortID = operation.shortID
        plugin = operation.plugin
        kind = operation.kind
        entity = operation.entity
        state = operation.state.rawValue
        payload = JSONValue(parsing: operation.payload)
        self.why = why
        attempts = operation.attempts
        createdAt = operation.createdAt
        // An operation due at once is stored due at the epoch (`OutboxQueries.dueAtOnce`).
        nextAttemptAt = max(operation.nextAttemptAt, operation.createdAt)
        lastError = operation.lastError
    }
}
