import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry config check`: validates the configuration without syncing anything.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Work with config.yaml.",
        subcommands: [Check.self]
    )

    struct Check: RuntimeCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate config.yaml: keys, types, plugins and their operations.",
            discussion: Examples.discussion(examples: ["ferry config check", "ferry config check --config staging.yaml --json"])
        )
        @OptionGroup var global: GlobalOptions

        func run(in runtime: FerryRuntime) async throws {
            let configuration = runtime.configuration
            let signsIn = runtime.registry.plugins.contains { $0 is any CredentialProvider }
            let unauthenticated = configuration.domains.filter { $0.value.usesDocumentsAPI }.keys.sorted()
            if !signsIn, let first = unauthenticated.first {
                throw FerryError(
                    .configuration,
                    "\(configuration.file): domain \(first) uses the documents API, which needs a signed-in user, and no plugin signs in; add `auth: {}` under plugins"
                )
            }
            if global.json {
                struct Report: Encodable {
                    let valid = true
                    let file: String
                    let dataDir: String
                    let server: String
                    let plugins: [String]
                    let domains: [String]
                }
                return try global.output.printJSON(
                    Report(
                        file: configuration.file,
                        dataDir: configuration.dataDirectory.path,
                        server: configuration.kernel.server,
                        plugins: runtime.registry.names.filter { configuration.domains[$0] == nil },
                        domains: configuration.domains.keys.sorted()
                    )
                )
            }
            let plugins = runtime.registry.names.filter { configuration.domains[$0] == nil }
            print("\(configuration.file) is valid")
            print("data folder: \(configuration.dataDirectory.path)")
            print("server: \(configuration.kernel.server)")
            print(
                "plugins: \(plugins.isEmpty ? "none enabled" : plugins.joined(separator: ", "))"
            )
            for (name, domain) in configuration.domains.sorted(by: { $0.key < $1.key }) {
                print("domain \(name): \(Self.describe(domain, signsIn: signsIn))")
            }
        }

        /// Where a domain's operations go and whose token they carry.
        static func describe(_ domain: DeclaredDomainSettings, signsIn: Bool) -> String {
            let operations = domain.operations.keys.sorted().joined(separator: ", ")
            guard domain.usesDocumentsAPI else {
                let token = signsIn ? "with the auth plugin's token" : "without a token (a public remote)"
                return "\(operations) on its own endpoints, \(token)"
            }
            let path = domain.pull.map { ($0 as NSString).deletingLastPathComponent } ?? "?"
            return "\(operations) on the documents API (\(path)), as the signed-in user"
        }
    }
}
