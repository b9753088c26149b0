#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// `/dev/full`, the device whose every write fails with "no space left on device": how tests make
/// a write fail without filling a disk. Linux has it; macOS, iOS and the BSDs do not, so the tests
/// that write to it are enabled only where it exists.
public enum FullDevice {
    /// The device's path.
    public static let path = "/dev/full"

    /// Whether `/dev/full` exists here as a character device.
    public static let isAvailable: Bool = {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR
    }()

    /// Why a test that needs the device did not run.
    public static let missingReason =
        "no /dev/full on this system (Linux has it; macOS does not): a write that fails with ENOSPC not checked"
}
