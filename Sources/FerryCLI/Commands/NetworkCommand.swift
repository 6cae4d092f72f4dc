import ArgumentParser
import Foundation
import SyncKernel
import SyncKernelCLI

/// `ferry network`: show connectivity, or pin it (airplane mode for a whole session).
struct NetworkCommand: RuntimeCommand {
    static let configuration = CommandConfiguration(
        commandName: "network",
        abstract: "Show connectivity, or force it: offline | online | metered | unmetered | auto.",
        discussion:
            "The setting is kept in the store, so every ferry process sees it until `ferry network auto`. `offline` and `online` pin reachability; `metered` and `unmetered` pin the link's cost; `auto` clears both."
    )

    @OptionGroup var global: GlobalOptions
    @Argument(help: "offline, online, metered, unmetered or auto; leave out to show the state.")
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
