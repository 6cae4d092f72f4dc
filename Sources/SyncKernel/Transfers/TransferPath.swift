import Foundation

/// Turns a relative path (often built from a remote-supplied name) into a file URL
/// that is guaranteed to lie under a root folder.
///
/// A remote's file name is never trusted as a local path: `..`, `.`, empty segments,
/// backslashes, NUL and other control characters are refused, and an absolute path is
/// read as relative to the root (`/etc/passwd` becomes `<root>/etc/passwd`).
enum TransferPath {
    /// `relative` resolved under `root`; throws `FerryError(.file)` naming the path when it
    /// would escape `root` or is not a plain relative path.
    ///
    /// The path may have at most 1024 bytes, and each segment at most 255.
    ///
    /// - Parameters:
    ///   - relative: the path, segments separated by `/`; leading slashes are dropped.
    ///   - root: the folder the result must lie under.
    public static func resolve(_ relative: String, under root: URL) throws -> URL {
        let trimmed = relative.hasPrefix("/") ? String(relative.drop { $0 == "/" }) : relative
        let segments = trimmed.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !trimmed.isEmpty, relative.utf8.count <= 1024 else {
            throw refused(relative, "it is empty or too long")
        }
        for segment in segments {
            if segment.isEmpty || segment == "." || segment == ".." {
                throw refused(relative, "it has an empty, `.` or `..` segment")
            }
            if segment.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\\" || $0.value == 0x7F }) {
                throw refused(relative, "it has a backslash or a control character")
            }
            if segment.utf8.count > 255 {
                throw refused(relative, "a segment is longer than 255 bytes")
            }
        }
        let base = root.standardizedFileURL
        let url = segments.reduce(base) { $0.appendingPathComponent($1) }.standardizedFileURL
        guard url.path.hasPrefix(base.path.hasSuffix("/") ? base.path : base.path + "/") else {
            throw refused(relative, "it leaves \(base.path)")
        }
        return url
    }

    /// The temporary file a download of `target` streams into, beside it (same folder,
    /// so that the final rename is atomic).
    public static func partial(for target: URL) -> URL {
        target.deletingLastPathComponent().appendingPathComponent("." + target.lastPathComponent + ".part")
    }

    private static func refused(_ path: String, _ why: String) -> FerryError {
        let shown = String(path.unicodeScalars.map { $0.value < 0x20 ? "?" : Character($0) }.prefix(120))
        return FerryError(
            .file,
            "refused the file path '\(shown)': \(why); a remote-supplied name must be a plain relative path"
        )
    }
}
