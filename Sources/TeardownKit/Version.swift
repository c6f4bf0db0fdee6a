public enum TeardownVersion { public static let current = "0.1.0" }
