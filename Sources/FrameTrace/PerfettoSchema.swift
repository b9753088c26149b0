/// The field numbers of Perfetto's trace format that framescope writes and reads, declared once for
/// the writer (``PerfettoTraceWriter``) and the reader, from Perfetto's `.proto` files
/// (`protos/perfetto/trace/`): `trace.proto`, `trace_packet.proto`, `track_event/*.proto`,
/// `interned_data/interned_data.proto`, `ps/process_tree.proto`, `ftrace/ftrace_event*.proto`,
/// `android/frame_timeline_event.proto` and `chrome/chrome_trace_event.proto`.
///
/// Field numbers never change in protobuf, which is what makes a codec of framescope's own safe:
/// a newer Perfetto adds fields, and a reader skips the ones it does not know.
package enum PerfettoSchema {
    /// `Trace`.
    package enum Trace {
        package static let packet = 1
    }

    /// `TracePacket`.
    package enum Packet {
        package static let ftraceEvents = 1
        package static let processTree = 2
        package static let chromeEvents = 5
        package static let timestamp = 8
        package static let trustedPacketSequenceID = 10
        package static let trackEvent = 11
        package static let internedData = 12
        package static let sequenceFlags = 13
        package static let incrementalStateCleared = 41
        package static let previousPacketDropped = 42
        package static let processDescriptor = 43
        package static let threadDescriptor = 44
        package static let timestampClockID = 58
        package static let defaults = 59
        package static let trackDescriptor = 60
        package static let frameTimelineEvent = 76
        package static let firstPacketOnSequence = 87

        /// `sequence_flags` bits.
        package static let incrementalStateClearedFlag: UInt64 = 1
        package static let needsIncrementalStateFlag: UInt64 = 2
    }

    /// `TracePacketDefaults` and its `TrackEventDefaults`.
    package enum Defaults {
        package static let trackEventDefaults = 11
        package static let trackUUID = 11
    }

    /// `TrackDescriptor`.
    package enum Track {
        package static let uuid = 1
        package static let name = 2
        package static let process = 3
        package static let thread = 4
        package static let parentUUID = 5
        package static let counter = 8
        package static let staticName = 10
        package static let atraceName = 13
        package static let siblingMergeBehavior = 15
        /// `SIBLING_MERGE_BEHAVIOR_BY_TRACK_NAME`.
        package static let mergeByName: UInt64 = 1
    }

    /// `ProcessDescriptor`.
    package enum Process {
        package static let pid = 1
        package static let cmdline = 2
        package static let legacySortIndex = 3
        package static let processName = 6
    }

    /// `ThreadDescriptor`.
    package enum Thread {
        package static let pid = 1
        package static let tid = 2
        package static let legacySortIndex = 3
        package static let threadName = 5
    }

    /// `TrackEvent`.
    package enum Event {
        package static let timestampDeltaMicroseconds = 1
        package static let categoryIIDs = 3
        package static let debugAnnotations = 4
        package static let legacyEvent = 6
        package static let type = 9
        package static let nameIID = 10
        package static let trackUUID = 11
        package static let extraCounterValues = 12
        package static let timestampAbsoluteMicroseconds = 16
        package static let categories = 22
        package static let name = 23
        package static let counterValue = 30
        package static let extraCounterTrackUUIDs = 31
        package static let chromeFrameReporter = 32
        package static let flowIDsOld = 36
        package static let terminatingFlowIDsOld = 42
        package static let doubleCounterValue = 44
        package static let extraDoubleCounterTrackUUIDs = 45
        package static let extraDoubleCounterValues = 46
        package static let flowIDs = 47
        package static let terminatingFlowIDs = 48

        /// `TrackEvent.Type`.
        package static let sliceBegin: UInt64 = 1
        package static let sliceEnd: UInt64 = 2
        package static let instant: UInt64 = 3
        package static let counter: UInt64 = 4
    }

    /// `TrackEvent.LegacyEvent`.
    package enum LegacyEvent {
        package static let nameIID = 1
        package static let phase = 2
        package static let durationMicroseconds = 3
        package static let unscopedID = 6
        package static let idScope = 7
        package static let bindID = 8
        package static let localID = 10
        package static let globalID = 11
        package static let pidOverride = 18
        package static let tidOverride = 19
    }

    /// `DebugAnnotation`.
    package enum Annotation {
        package static let nameIID = 1
        package static let boolValue = 2
        package static let uintValue = 3
        package static let intValue = 4
        package static let doubleValue = 5
        package static let stringValue = 6
        package static let pointerValue = 7
        package static let legacyJSONValue = 9
        package static let name = 10
        package static let dictEntries = 11
        package static let arrayValues = 12
        package static let stringValueIID = 17
    }

    /// `InternedData` and its entries (`EventName`, `EventCategory`, `DebugAnnotationName`,
    /// `InternedString`: all `iid = 1`, then the string as field 2).
    package enum Interned {
        package static let eventCategories = 1
        package static let eventNames = 2
        package static let debugAnnotationNames = 3
        package static let debugAnnotationStringValues = 29
        package static let iid = 1
        package static let string = 2
    }

    /// `ChromeEventBundle` and `ChromeMetadata`: where framescope keeps its trace metadata.
    package enum ChromeEvents {
        package static let metadata = 2
        package static let metadataName = 1
        package static let metadataStringValue = 2
        package static let metadataJSONValue = 5
        /// The `ChromeMetadata.name` of framescope's metadata object.
        package static let framescopeMetadataName = "framescope"
    }

    /// `ChromeFrameReporter`, the typed argument of Chrome's `PipelineReporter` slices.
    package enum FrameReporter {
        package static let state = 1
        package static let frameSequence = 4
        package static let affectsSmoothness = 5
        package static let layerTreeHostID = 11
        package static let frameType = 13
        /// `ChromeFrameReporter.State` by value, as Chrome's JSON writes it.
        package static let states = ["STATE_NO_UPDATE_DESIRED", "STATE_PRESENTED_ALL", "STATE_PRESENTED_PARTIAL", "STATE_DROPPED"]
        /// `ChromeFrameReporter.FrameType` by value.
        package static let frameTypes = ["FORKED", "BACKFILL"]
    }

    /// `ProcessTree`, its `Process` and `Thread`.
    package enum ProcessTree {
        package static let processes = 1
        package static let threads = 2
        package static let processPID = 1
        package static let processCmdline = 3
        package static let threadTID = 1
        package static let threadName = 2
        package static let threadTGID = 3
    }

    /// `FtraceEventBundle`, `FtraceEvent` and `PrintFtraceEvent`.
    package enum Ftrace {
        package static let event = 2
        package static let timestamp = 1
        package static let pid = 2
        package static let print = 3
        package static let printBuffer = 2
    }

    /// `FrameTimelineEvent` (SurfaceFlinger's frame timeline) and its messages.
    package enum FrameTimeline {
        package static let expectedDisplayFrameStart = 1
        package static let actualDisplayFrameStart = 2
        package static let expectedSurfaceFrameStart = 3
        package static let actualSurfaceFrameStart = 4
        package static let frameEnd = 5
        /// Every start message begins `cookie = 1, token = 2`.
        package static let cookie = 1
        package static let token = 2
    }
}
