/// The version of framescope that wrote a trace, reported in its metadata and by `--version`.
public enum FramescopeVersion {
    /// The current version.
    public static let current = "0.1.0"
}
