import Foundation
import Logging
import SyncKernel
import SyncKernelCLI

/// Opens the runtime a command works on, draws transfer progress while it runs, and
/// closes what it started.
enum RuntimeHost {
    /// Runs `command` on a runtime opened for it; returns the runtime, whose HTTP client
    /// and embedded server are closed and whose store is left open (see `FerryMain`).
    @discardableResult
    static func run(_ command: any RuntimeCommand) async throws -> FerryRuntime {
        let global = command.global
        let configuration = try FerryConfiguration.load(path: global.configPath)
        // `status:` is checked here, so that every command refuses a wrong one.
        _ = try LiveViewSettings(configuration)
        ConfigurationWarnings.print(configuration)
        guard let configured = Logger.Level(rawValue: configuration.kernel.logLevel) else {
            throw FerryError(
                .configuration,
                "\(configuration.file): log_level \(configuration.kernel.logLevel) is not a level; use one of: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        bootstrapLogging(level: global.verbose ? .debug : configured, format: global.logFormat)
        let remotes = RemoteHost(configuration: configuration)
        var options = FerryRuntime.Options()
        options.logger = Logger(label: "ferry")
        options.resolveRemote = { try await remotes.resolve($0) }
        let runtime = try await FerryRuntime.open(
            configuration: configuration,
            pluginTypes: Composition.plugins,
            options: options
        )
        defer { runtime.events.finish() }
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                if !(command is RunCommand), TransferProgress.isVisible {
                    let progress = runtime.events.subscribe()
                    group.addTask { await TransferProgress.draw(progress) }
                }
                try await command.run(in: runtime)
                group.cancelAll()
            }
        } catch {
            await close(runtime, remotes)
            throw error
        }
        await close(runtime, remotes)
        return runtime
    }

    /// Closes the runtime's HTTP client, then the embedded server if one was started.
    private static func close(_ runtime: FerryRuntime, _ remotes: RemoteHost) async {
        await runtime.shutdown()
        await remotes.stop()
    }

    static func bootstrapLogging(level: Logger.Level, format: LogFormat) {
        LoggingSystem.bootstrap { format.handler(label: $0, level: level) }
    }
}
