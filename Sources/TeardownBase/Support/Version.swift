public enum TeardownVersion {
    public static let current = "0.1.0"

    /// The version and the running executable's file signature. Every output's fingerprint
    /// holds it, so a Teardown rebuilt from changed sources at the same version number (a
    /// development build, a patched package) renders the pages again instead of keeping old ones.
    package static let build: String = current + " " + (FileSystem.status("/proc/self/exe").map(executableSignature) ?? "")

    /// Size, modification time and inode, not the change time: the package manager, an
    /// installer or a backup that hard-links the executable moves its change time without
    /// changing a byte, and every page of every site was rendered again after that.
    package static func executableSignature(_ status: FileSystem.Status) -> String {
        String(status.contentSignature, radix: 16)
    }
}
