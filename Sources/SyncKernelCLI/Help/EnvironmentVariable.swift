/// An environment variable Ferry reads, for `ferry help environment`.
public struct EnvironmentVariable: Encodable, Sendable {
    public let name: String
    public let meaning: String

    /// Every variable the `ferry` command and its shipped plugins read.
    public static let all: [EnvironmentVariable] = [
        .init(name: "FERRY_CONFIG", meaning: "the configuration file when --config is not given (default ./config.yaml)"),
        .init(
            name: "FERRY_PASSWORD",
            meaning: "the password for `ferry auth login` when --password-stdin is not given (never asked for then)"
        ),
        .init(
            name: "FERRY_ADMIN_TOKEN",
            meaning: "`ferry serve`: turns /admin on for callers with this bearer token (as --admin-token)"
        ),
        .init(
            name: "TMDB_TOKEN",
            meaning: "the shipped config.yaml's TMDB token (${TMDB_TOKEN:-...}); any ${NAME} in config.yaml reads NAME"
        ),
        .init(name: "NO_COLOR", meaning: "set and not empty: no bold, no progress bars, no redraws"),
        .init(name: "TERM", meaning: "`dumb`: no bold, no progress bars, no redraws"),
    ]

    /// The list as `ferry help environment` prints it.
    public static var table: String {
        "Environment variables ferry reads (values are never printed):\n\n"
            + Output.render(["VARIABLE", "MEANING"], all.map { [$0.name, $0.meaning] })
    }
}
