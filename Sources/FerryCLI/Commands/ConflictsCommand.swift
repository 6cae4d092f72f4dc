import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry conflicts`: writes the remote disagreed with.
struct ConflictsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List conflicts and resolve those kept for a person.",
        subcommands: [List.self, Resolve.self]
    )

    struct List: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "List open conflicts (--all: settled ones too).",
            discussion: Examples.discussion(examples: ["ferry conflicts list", "ferry conflicts list --all --json"])
        )
        @OptionGroup var global: GlobalOptions
        @Flag(help: "Include conflicts a policy already settled.") var all = false

        func run(in runtime: FerryRuntime) async throws {
            let views = try await Self.conflicts(in: runtime, all: all)
            if global.json { return try global.output.printJSON(["conflicts": views]) }
            if views.isEmpty { return print(all ? "no conflicts" : "no open conflicts") }
            Output(json: false).table(
                ["ID", "PLUGIN", "KIND", "ENTITY", "POLICY", "OUTCOME", "REASON"],
                views.map {
                    [String($0.id.prefix(8)), $0.plugin, $0.kind, $0.entity, $0.policy, $0.outcome, $0.summary]
                }
            )
        }

        /// The conflicts `conflicts list` shows (and the live view's `GET /api/conflicts`):
        /// open ones, or with `all` the settled ones too.
        static func conflicts(in runtime: FerryRuntime, all: Bool = false) async throws -> [ConflictView] {
            let reports = try await runtime.store.read { db in try ConflictStore.list(openOnly: !all, in: db) }
            return reports.map { report in
                ConflictView(report, description: runtime.registry.plugin(named: report.plugin)?.describe(report))
            }
        }
    }

    struct Resolve: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep the local write or the remote state.",
            discussion: Examples.discussion(examples: [
                "ferry conflicts resolve 9b1c4d2e --keep remote", "ferry conflicts resolve 9b1c --keep local",
            ])
        )
        @OptionGroup var global: GlobalOptions
        @Argument(help: ArgumentHelp("The conflict id, or its first characters.", valueName: "id")) var id: String
        @Option(
            help: ArgumentHelp(
                "local: send the local write again, unconditionally; remote: adopt the remote state.",
                valueName: "side"
            )
        )
        var keep: Side

        enum Side: String, ExpressibleByArgument, CaseIterable {
            case local, remote
        }

        /// What `--json` prints: the conflict as it now stands, and the side kept.
        struct Resolution: Encodable {
            let conflict: ConflictView
            let kept: String
        }

        func run(in runtime: FerryRuntime) async throws {
            let resolution = try await Self.resolve(id, keep: keep, in: runtime)
            if global.json { return try global.output.printJSON(resolution) }
            let conflict = resolution.conflict
            print(
                keep == .local
                    ? "kept the local write; the runner sends \(conflict.plugin) \(conflict.kind) on \(conflict.entity) again"
                    : "kept the remote state of \(conflict.plugin) \(conflict.entity); the local write was dropped"
            )
        }

        /// Settles the conflict `id` names by keeping one side (and so does the live view's
        /// `POST /api/conflicts/{id}/resolve`).
        static func resolve(_ id: String, keep: Side, in runtime: FerryRuntime) async throws -> Resolution {
            let report = try await runtime.resolveConflict(id: id, keepLocal: keep == .local)
            let description = runtime.registry.plugin(named: report.plugin)?.describe(report)
            return Resolution(conflict: ConflictView(report, description: description), kept: keep.rawValue)
        }
    }
}

/// A conflict as `ferry conflicts` shows it; `local` (the write) and `remote` (the remote's
/// entity, null when it sent none) are the JSON documents themselves.
struct ConflictView: Encodable {
    let id, operation, plugin, kind, entity, policy, outcome, reason: String
    let local: JSONValue
    let remote: JSONValue?
    /// The fields both sides changed, with both values, when the write was merged field by field.
    let fields: [Field]
    let status: Int
    let createdAt: Date

    /// A field both sides changed: its values as JSON values, `base` (the value the local
    /// write was made on) null when unknown.
    struct Field: Encodable {
        let field: String
        let base: JSONValue?
        let local, remote: JSONValue
        /// The values as JSON text, as people read them.
        let text: FieldConflict

        init(_ conflict: FieldConflict) {
            field = conflict.field
            base = conflict.base.map { JSONValue(parsing: $0) }
            local = JSONValue(parsing: conflict.local)
            remote = JSONValue(parsing: conflict.remote)
            text = conflict
        }

        enum CodingKeys: String, CodingKey {
            case field, base, local, remote
        }
    }

    /// The reason, then each field both sides changed: `status: here "watched", server "watching"`.
    var summary: String {
        ([reason] + fields.map { "\($0.field): here \($0.text.local), server \($0.text.remote)" })
            .joined(separator: "; ")
    }

    init(_ report: ConflictReport, description: String?) {
        id = report.id
        operation = report.operationID.lowercasedString
        plugin = report.plugin
        kind = report.kind
        entity = report.entity
        policy = report.policy.rawValue
        outcome = report.outcome
        reason = description ?? report.reason
        local = JSONValue(parsing: report.local)
        remote = report.remote.map { JSONValue(parsing: $0) }
        fields = report.fields.map(Field.init)
        status = report.status
        createdAt = report.createdAt
    }
}
