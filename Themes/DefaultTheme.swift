import Foundation

/// Locates the default theme that ships with Teardown.
public enum DefaultTheme {
    /// The folder holding `templates/` and `assets/` of the built-in default theme.
    public static var directory: URL? {
        Bundle.module.url(forResource: "default", withExtension: nil)
    }
}
