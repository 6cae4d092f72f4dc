import Foundation
import SyncKernel

/// The recipes plugin (being built).
public struct RecipesPlugin: SyncPlugin {
    public static let name = "recipes"
    public static let operations: [String: OperationPolicy] = [:]

    public init(settings: EmptySettings, context: PluginContext) {}

    public func send(_ operation: QueuedOperation, context: SendContext) async throws -> SendOutcome {
        throw FerryError(.plugin, "recipes has no operation \(operation.kind)")
    }
}
