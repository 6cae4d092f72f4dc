import Foundation
import SyncKernel

/// The movies plugin (being built).
public struct MoviesPlugin: SyncPlugin {
    public static let name = "movies"
    public static let operations: [String: OperationPolicy] = [:]

    public init(settings: EmptySettings, context: PluginContext) {}

    public func send(_ operation: QueuedOperation, context: SendContext) async throws -> SendOutcome {
        throw FerryError(.plugin, "movies has no operation \(operation.kind)")
    }
}
