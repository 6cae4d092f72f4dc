import ArgumentParser

/// A movie's status as `--status` takes it, so help and shell completion offer the three;
/// `Watched` and `want-to-watch` are read as `watched` and `want_to_watch`.
enum MovieStatusArgument: String, CaseIterable, ExpressibleByArgument {
    case wantToWatch = "want_to_watch"
    case watching
    case watched

    init?(argument: String) {
        self.init(rawValue: argument.lowercased().replacing("-", with: "_").replacing(" ", with: "_"))
    }
}
