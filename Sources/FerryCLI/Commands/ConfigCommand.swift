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
            abstract: "Validate config.yaml: keys, types, plugins and their operations."
        )
        @OptionGroup var global: GlobalOptions

        func run(in runtime: FerryRuntime) async throws {
            let configuration = runtime.configuration
            if global.json {
                struct Report: Encodable {
                    let file: String
                    let dataDir: String
                    let server: String
                    let plugins: [String]
                }
                return try Output(json: true).printJSON(
                    Report(
                        file: configuration.file,
                        dataDir: configuration.dataDirectory.path,
                        server: configuration.kernel.server,
                        plugins: runtime.registry.names
                    )
                )
            }
            print("\(configuration.file) is valid")
            print("data folder: \(configuration.dataDirectory.path)")
            print("server: \(configuration.kernel.server)")
            print(
                "plugins: \(runtime.registry.names.isEmpty ? "none enabled" : runtime.registry.names.joined(separator: ", "))"
            )
        }
    }
}
