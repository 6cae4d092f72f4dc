import Foundation
import Logging
import SyncKernel

/// Opens the runtime a command works on, and closes what it started.
enum RuntimeHost {
    static func run(_ command: any RuntimeCommand) async throws {
        let global = command.global
        let configuration = try FerryConfiguration.load(path: global.configPath)
        let level: Logger.Level = global.verbose ? .debug : Logger.Level(rawValue: configuration.kernel.logLevel) ?? .info
        bootstrapLogging(level: level)
        let remotes = RemoteHost(configuration: configuration)
        var options = FerryRuntime.Options()
        options.logger = Logger(label: "ferry")
        options.resolveRemote = { try await remotes.resolve($0) }
        let runtime = try await FerryRuntime.open(
            configuration: configuration, pluginTypes: Composition.plugins, options: options)
        do {
            try await command.run(in: runtime)
        } catch {
            await remotes.stop()
            throw error
        }
        await remotes.stop()
    }

    private static let bootstrapOnce: Void = ()

    static func bootstrapLogging(level: Logger.Level) {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}
