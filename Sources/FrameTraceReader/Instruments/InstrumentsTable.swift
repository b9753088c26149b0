/// The Instruments tables framescope knows, told by schema name or, since Xcode versions rename
/// them (`os-signpost-interval` is `OSSignpostIntervals` in some), by their columns' mnemonics.
package enum InstrumentsTable: String, Sendable, CaseIterable {
    /// Apple's verdict: one row per hitch (`start`, `duration`, `is-system`, `narrative-description`).
    case hitches
    /// The stages of frames: `hitches-frame-lifetimes`, `hitches-updates` (the app's commits),
    /// `hitches-renders` and `hitches-gpu` (the render server), `hitches-framewait`.
    case frameLifetimes = "hitches-frame-lifetimes"
    case updates = "hitches-updates"
    case renders = "hitches-renders"
    case gpu = "hitches-gpu"
    case frameWait = "hitches-framewait"
    /// When each surface was on the display: one row per displayed frame.
    case displayedSurfaces = "displayed-surfaces-interval"
    /// The display's vsyncs.
    case vsyncs = "display-vsyncs-interval"
    /// Surface swaps (read, not used).
    case surfaceSwaps = "display-surface-swap"
    /// Displays and their maximum refresh rates.
    case displayInfo = "device-display-info"
    /// Signpost intervals (`os-signpost-interval`, `OSSignpostIntervals`, Points of Interest intervals).
    case signpostIntervals = "os-signpost-interval"
    /// Signpost events (`os-signpost`, `PointsOfInterestEvents`).
    case signpostEvents = "os-signpost"
    /// Run loop intervals and events (read, not used).
    case runLoopIntervals = "runloop-intervals"
    case runLoopEvents = "runloop-events"
    /// Hangs: 250 ms and more of an unresponsive main run loop, and shorter interaction delays.
    case potentialHangs = "potential-hangs"
    /// Hang risks (read, not used).
    case hangRisks = "hang-risks"

    /// The table a schema is: by its name, else by its columns; `nil` for a table framescope does
    /// not read.
    package init?(schemaName: String, mnemonics: [String]) {
        if let known = Self(rawValue: schemaName) {
            self = known
            return
        }
        let lowered = schemaName.lowercased()
        let columns = Set(mnemonics)
        if lowered.contains("signpost") || lowered.contains("pointsofinterest")
            || lowered.contains("points-of-interest")
        {
            self = columns.contains("duration") ? .signpostIntervals : .signpostEvents
        } else if columns.isSuperset(of: ["is-system", "narrative-description", "duration"]) {
            self = .hitches
        } else if columns.contains("hang-type"), columns.contains("duration") {
            self = .potentialHangs
        } else if columns.contains("max-refresh-rate") {
            self = .displayInfo
        } else if columns.isSuperset(of: ["name", "duration", "start-message"]) {
            self = .signpostIntervals
        } else if columns.isSuperset(of: ["name", "message"]), columns.contains("time") || columns.contains("timestamp")
        {
            self = .signpostEvents
        } else {
            return nil
        }
    }

    /// Whether framescope reads the table's rows (the others are counted in the diagnostics).
    package var isUsed: Bool {
        switch self {
        case .surfaceSwaps, .runLoopIntervals, .runLoopEvents, .hangRisks: false
        default: true
        }
    }

    /// The category of the events a row of this table becomes: the schema name Apple gives it.
    package var category: String { rawValue }

    /// The name of the instant a row of this table becomes (signposts are named by themselves).
    package var eventName: String {
        switch self {
        case .hitches: "Hitch"
        case .frameLifetimes: "Frame Lifetime"
        case .updates: "App Update"
        case .renders: "Render"
        case .gpu: "GPU"
        case .frameWait: "Frame Wait"
        case .displayedSurfaces: "Displayed Surface"
        case .vsyncs: "VSync"
        case .displayInfo: "Display"
        case .potentialHangs: "Hang"
        default: rawValue
        }
    }
}
