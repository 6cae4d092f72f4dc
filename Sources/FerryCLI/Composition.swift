import SyncKernel

/// The composition root: the one list of plugins this build of ferry ships.
public enum Composition {
    public static let plugins: [any SyncPlugin.Type] = []
}
