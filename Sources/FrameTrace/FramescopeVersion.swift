/// The version of framescope that wrote a trace, reported in its metadata and by `--version`.
public enum FramescopeVersion {
    /// The current version.
    public static let current = "0.1.0"
    /// The producer name framescope's traces carry in their metadata (`producer`), by which
    /// readers know a trace is framescope's own.
    public static let producer = "framescope"
}
