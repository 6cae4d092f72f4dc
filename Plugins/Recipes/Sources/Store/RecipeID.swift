import Foundation

/// Recipe ids: chosen by the client, so checked here before they reach a path or a file name.
public enum RecipeID {
    /// 1 to 128 letters, digits, `.`, `_` or `-`, starting with a letter or digit, without `..`
    /// (the protocol's rule for client-chosen ids; such an id is also a safe file name).
    public static func isValid(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, value.unicodeScalars.count <= 128, isAlphanumeric(first) else {
            return false
        }
        return value.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "." || $0 == "_" || $0 == "-" }
            && !value.contains("..")
    }

    /// A fresh id for a recipe created here.
    public static func make() -> String {
        UUID().lowercasedString
    }

    private static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
