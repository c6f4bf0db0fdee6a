import Yams

/// Truth values read as YAML 1.1 reads plain scalars, as Yams' `bool` resolver rule does, without
/// its regular expression (`YAMLMap.resolver` says why). Whole numbers need no rule: Yams reads
/// any plain scalar that parses as one, whatever its tag.
enum YAMLScalars {
    /// `true`/`false`, `yes`/`no` and `on`/`off`.
    static func bool(_ node: Node) -> Bool? {
        guard let scalar = node.scalar, scalar.style == .plain || scalar.style == .any else { return nil }
        // In any case, as Yams' `Bool.construct` reads a scalar whose tag is not text.
        switch scalar.string.lowercased() {
        case "yes", "true", "on": return true
        case "no", "false", "off": return false
        default: return nil
        }
    }
}
