import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry network`: show connectivity, or pin it (airplane mode for a whole session).
struct NetworkCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Show connectivity, or force it: offline | online | metered | unmetered | auto.",
        discussion: Examples.discussion(
            "The setting is kept in the store, so every ferry process sees it until `ferry network auto`. `offline` and `online` pin reachability; `metered` and `unmetered` pin the link's cost; `auto` clears both.",
            examples: ["ferry network", "ferry network offline", "ferry network auto"]
        )
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The mode to force; leave out to show the state.", valueName: "mode"))
    var mode: NetworkOverride?

    func run(in runtime: FerryRuntime) async throws {
        if let mode {
            switch mode {
            case .auto:
                try await runtime.settings.set(NetworkOverride?.none, for: "network.reachability")
                try await runtime.settings.set(NetworkOverride?.none, for: "network.metering")
            case .online, .offline:
                try await runtime.settings.set(mode, for: "network.reachability")
            case .metered, .unmetered:
                try await runtime.settings.set(mode, for: "network.metering")
            }
        }
        let state = await runtime.connectivity.current()
        if global.json { return try Output(json: true).printJSON(state) }
        print("connectivity: \(state.summary)")
    }
}

extension NetworkOverride: ExpressibleByArgument {}
