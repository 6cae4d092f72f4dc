import Foundation
import SyncKernel

/// Recipe photos on disk: `<data_dir>/recipes/photos/<recipe id>.<ext>`, beside the
/// recipe rows of the same plugin. Files are written to a temporary name and moved into
/// place, so a crash never leaves a partial photo under a recipe's name.
public struct PhotoStore: Sendable {
    /// The folder that holds the photos.
    public let folder: URL

    /// The largest photo accepted (the remote refuses uploads over 8 MiB).
    public static let maxBytes = 8 << 20

    public init(pluginDirectory: URL) {
        folder = pluginDirectory.appendingPathComponent("photos", isDirectory: true)
    }

    /// The path of a stored photo.
    public func url(for file: String) -> URL {
        folder.appendingPathComponent(file)
    }

    /// The file name of `id`'s photo of `kind`. Ids are checked by `RecipeID`, so the name stays in the folder.
    static func fileName(id: String, kind: ImageKind) -> String {
        "\(id).\(kind.fileExtension)"
    }

    /// A photo a person named on the command line: checked (exists, an image, not too big) and read.
    public static func readUserPhoto(at path: String) throws -> (data: Data, kind: ImageKind) {
        let url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw FerryError(.usage, "no photo at \(path); check the path", underlying: error)
        }
        if let size = (attributes[.size] as? NSNumber)?.intValue, size > maxBytes {
            throw FerryError(.usage, "\(path) is \(size) bytes; a recipe photo must be at most 8 MiB")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw FerryError(.usage, "\(path) is not a regular file; name an image file (PNG, JPEG, GIF, WebP or HEIC)")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw FerryError(.usage, "cannot read \(path): check its permissions", underlying: error)
        }
        guard !data.isEmpty else { throw FerryError(.usage, "\(path) is empty; name an image file") }
        guard let kind = ImageKind.sniff(data) else {
            throw FerryError(
                .usage,
                "\(path) is not a PNG, JPEG, GIF, WebP or HEIC image; convert it or pick another file"
            )
        }
        return (data, kind)
    }

    /// Writes `data` as `id`'s photo and returns its file name and digest.
    @discardableResult
    public func write(_ data: Data, id: String, kind: ImageKind) throws -> (file: String, sha256: String) {
        guard RecipeID.isValid(id) else {
            throw FerryError(.file, "refusing to store a photo for the invalid recipe id \(id.prefix(64))")
        }
        let file = Self.fileName(id: id, kind: kind)
        let target = url(for: file)
        let temporary = folder.appendingPathComponent(".\(file).\(UUID().lowercasedString).partial")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try data.write(to: temporary)
            if FileManager.default.fileExists(atPath: target.path) {
                _ = try FileManager.default.replaceItemAt(target, withItemAt: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: target)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw FerryError(
                .file,
                "cannot store the photo of \(id) in \(folder.path): \(error.localizedDescription)",
                underlying: error
            )
        }
        return (file, SHA256Hasher.hex(data))
    }

    /// The bytes of a stored photo, or nil when the file is gone.
    public func read(_ file: String) -> Data? {
        try? Data(contentsOf: url(for: file))
    }

    /// Removes a stored photo; a missing file is fine.
    public func remove(_ file: String?) {
        guard let file, !file.contains("/"), !file.hasPrefix(".") else { return }
        try? FileManager.default.removeItem(at: url(for: file))
    }

    /// Removes every file in the folder that is not in `keep` (left-over partials included)
    /// and was last modified before `olderThan`, so that a photo another process is adding
    /// right now is left alone.
    @discardableResult
    public func sweep(keeping keep: Set<String>, olderThan: Date) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return 0 }
        var removed = 0
        for name in names where !keep.contains(name) {
            let file = url(for: name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
            guard let modified, modified < olderThan else { continue }
            if (try? FileManager.default.removeItem(at: file)) != nil { removed += 1 }
        }
        return removed
    }
}
