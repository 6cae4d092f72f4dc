import Foundation
import SyncKernel

/// The auth plugin (being built).
public struct AuthPlugin: SyncPlugin {
    public static let name = "auth"
    public static let operations: [String: OperationPolicy] = [:]

    public init(settings: EmptySettings, context: PluginContext) {}

    public func send(_ operation: QueuedOperation, context: SendContext) async throws -> SendOutcome {
        throw FerryError(.plugin, "auth has no operation \(operation.kind)")
    }
}
