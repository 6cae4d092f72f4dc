/// What `import-legacy` did.
public struct LegacyImportReport: Sendable, Encodable, Equatable {
    /// Saved recipes taken in by this run.
    public var imported: Int = 0
    /// Saved recipes a previous run already took (left as they are now).
    public var alreadyImported: Int = 0
    /// Recipe documents stored (and queued for upload).
    public var documents: Int = 0
    /// Photos stored beside their recipe.
    public var photos: Int = 0
    /// Saves queued for the server.
    public var savesQueued: Int = 0
    /// Ids that could not be taken, with why.
    public var problems: [String] = []
}
