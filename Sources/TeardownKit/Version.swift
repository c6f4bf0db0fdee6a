public enum TeardownVersion {
    public static let current = "0.1.0"

    /// The version and the running executable's file signature. Every output's fingerprint
    /// holds it, so a Teardown rebuilt from changed sources at the same version number (a
    /// development build, a patched package) renders the pages again instead of keeping old ones.
    static let build: String = current + " " + (FileSystem.status("/proc/self/exe").map { String($0.signature, radix: 16) } ?? "")
}
