import SyncKernel

extension Remedy {
    /// The remedy as the `ferry` command says it.
    public var instruction: String {
        switch self {
        case .signIn: "run `ferry auth login`"
        case .enableSignIn:
            "no enabled plugin signs in: add `auth: {}` under plugins in config.yaml, then run `ferry auth login`"
        case .listQueue: "`ferry queue list` shows them"
        case .retryOrDiscard(let operation):
            "`ferry queue retry \(operation)` sends it again, `ferry queue discard \(operation)` drops it"
        case .listConflicts: "`ferry conflicts list` shows them"
        case .resolveConflicts: "`ferry conflicts list`, then `ferry conflicts resolve`"
        }
    }
}

extension FerryError {
    /// The message with its remedy, as the `ferry` command prints it.
    public var rendered: String {
        remedy.map { "\(message); \($0.instruction)" } ?? message
    }
}

extension QueueInspector.Explanation {
    /// The explanation with its remedy, as the `ferry` command prints it.
    public var rendered: String {
        remedy.map { "\(text); \($0.instruction)" } ?? text
    }
}
