#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, one at a time.
///
/// `ProcessInfo.processInfo.environment` copies every variable into a new dictionary on
/// each call; a command's start-up asks for a few names and needs none of the others.
public enum ProcessEnvironment {
    /// The value of the variable `name`, or nil when it is not set.
    public static func value(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
