import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry domain`: the domains declared in config.yaml alone.
struct DomainCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "domain",
        abstract: "Work with a domain declared in config.yaml (domains:): queue its operations, list its documents.",
        discussion: Examples.discussion(
            """
            ferry domain NAME list              the local documents
            ferry domain NAME show ENTITY       one document
            ferry domain NAME OPERATION ENTITY [--body JSON]
                                                queue an operation (the local document changes at once)
            """,
            examples: [
                "ferry domain bookmarks list",
                "ferry domain bookmarks put swift --body '{\"url\": \"https://swift.org\"}'",
                "ferry domain bookmarks show swift --json",
            ]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The domain's name under domains: in config.yaml.", valueName: "name")) var name: String
    @Argument(help: ArgumentHelp("list, show, or one of the domain's operations.", valueName: "action")) var action: String
    @Argument(
        help: ArgumentHelp("The entity key (taken from the document when the domain declares key:).", valueName: "entity")
    ) var entity: String?
    @Option(help: ArgumentHelp("The operation's JSON body.", valueName: "json")) var body: String?

    func run(in runtime: FerryRuntime) async throws {
        let domain = name
        guard runtime.registry.plugin(named: domain) is DeclaredDomain else {
            let declared = runtime.configuration.domains.keys.sorted()
            throw FerryError(
                .usage,
                "no domain \(domain) in \(runtime.configuration.file); \(declared.isEmpty ? "declare one under domains: (see docs/configuration.md)" : "declared: \(declared.joined(separator: ", "))")"
            )
        }
        switch action {
        case "list":
            let rows = try await runtime.store.read { db in try DeclaredEntities.list(domain: domain, in: db) }
            if global.json {
                return try global.output.printJSON(Listing(domain: domain, documents: rows.map(Document.init)))
            }
            if rows.isEmpty { return print("no documents in \(domain)") }
            Output(json: false).table(["ENTITY", "DOCUMENT"], rows.map { [$0.entity, String($0.body.prefix(100))] })
        case "show":
            let key = try requireEntity()
            let rows = try await runtime.store.read { db in try DeclaredEntities.list(domain: domain, in: db) }
            guard let row = rows.first(where: { $0.entity == key }) else {
                throw FerryError(.notFound, "no document \(key) in \(domain); `ferry domain \(domain) list` shows them")
            }
            if global.json { return try global.output.printJSON(Document(row)) }
            print(String(decoding: try JSONOutput.encode(JSONValue(parsing: row.body)), as: UTF8.self))
        default:
            let document = Data((body ?? "{}").utf8)
            let key = try runtime.declaredEntity(domain: domain, kind: action, given: entity, body: document)
            let result = try await runtime.submitDeclared(domain: domain, kind: action, entity: key, body: document)
            if global.json {
                return try global.output.printJSON(
                    Submitted(domain: domain, operation: action, entity: key, result: Self.word(for: result))
                )
            }
            switch result {
            case .queued(.cancelled): print("\(action) cancelled an unsent opposite operation; nothing to send")
            case .queued(.coalesced): print("\(action) folded into an unsent operation on \(key)")
            case .queued(.inserted): print("queued \(action) on \(key)")
            case .sent: print("\(action) on \(key) done")
            }
        }
    }

    /// What `list --json` prints.
    struct Listing: Encodable {
        let domain: String
        let documents: [Document]
    }

    /// A document as `--json` prints it: its entity key, and the document as the JSON it is.
    struct Document: Encodable {
        let entity: String
        let document: JSONValue

        init(_ row: DeclaredEntities.Row) {
            entity = row.entity
            document = JSONValue(parsing: row.body)
        }
    }

    /// What an operation's `--json` prints; `result` is `queued`, `coalesced`, `cancelled` or `sent`.
    struct Submitted: Encodable {
        let domain, operation, entity, result: String
    }

    static func word(for result: SubmitResult) -> String {
        switch result {
        case .queued(.cancelled): "cancelled"
        case .queued(.coalesced): "coalesced"
        case .queued(.inserted): "queued"
        case .sent: "sent"
        }
    }

    private func requireEntity() throws -> String {
        guard let entity, !entity.isEmpty else {
            throw FerryError(.usage, "give the entity key: ferry domain \(name) \(action) ENTITY")
        }
        return entity
    }
}
