import ArgumentParser
import SyncKernelCLI

/// A vote: thumbs up or down.
public enum VoteValue: String, Codable, Sendable, CaseIterable, ExpressibleByArgument {
    case up
    case down
}
