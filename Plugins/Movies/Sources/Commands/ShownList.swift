import Foundation

/// The list last printed, shared with the delivery callback.
final class ShownList: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Movie]?
    var value: [Movie]? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
