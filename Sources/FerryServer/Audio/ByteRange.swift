/// A single `Range: bytes=...` request resolved against a file size (RFC 9110).
enum ByteRange: Equatable {
    /// Serve the whole file (no Range header, or one this server ignores: malformed or multi-range).
    case whole
    /// Serve `lower...upper` (inclusive).
    case partial(lower: Int, upper: Int)
    /// 416: the range starts beyond the end of the file.
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header = header?.trimmingCharacters(in: .whitespaces), header.lowercased().hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            self = .whole
            return
        }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix >= 0 else {
                self = .whole
                return
            }
            guard suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .partial(lower: max(0, size - suffix), upper: size - 1)
            return
        }
        guard let lower = Int(first), lower >= 0 else {
            self = .whole
            return
        }
        var upper = size - 1
        if !last.isEmpty {
            guard let value = Int(last), value >= lower else {
                self = .whole
                return
            }
            upper = min(value, size - 1)
        }
        guard lower < size else {
            self = .unsatisfiable
            return
        }
        self = .partial(lower: lower, upper: upper)
    }
}
