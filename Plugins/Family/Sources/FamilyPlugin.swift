import Foundation
import SyncKernel

/// The family plugin (being built).
public struct FamilyPlugin: SyncPlugin {
    public static let name = "family"
    public static let operations: [String: OperationPolicy] = [:]

    public init(settings: EmptySettings, context: PluginContext) {}

    public func send(_ operation: QueuedOperation, context: SendContext) async throws -> SendOutcome {
        throw FerryError(.plugin, "family has no operation \(operation.kind)")
    }
}
