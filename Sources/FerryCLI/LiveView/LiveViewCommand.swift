import SyncKernel
import SyncKernelCLI

/// A command that also reads `status:` from the configuration: `ferry run` serves the
/// live view it describes, `ferry status` asks a runner that serves it.
protocol LiveViewCommand: RuntimeCommand {
    func run(in runtime: FerryRuntime, liveView: LiveViewSettings) async throws
}

extension LiveViewCommand {
    func run(in runtime: FerryRuntime) async throws {
        try await run(in: runtime, liveView: .off)
    }
}
