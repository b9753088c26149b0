/// The field numbers of Perfetto's trace format that framescope writes and reads, declared once for
/// the writer (``PerfettoTraceWriter``) and the reader, from Perfetto's `.proto` files
/// (`protos/perfetto/trace/`): `trace.proto`, `trace_packet.proto`, `track_event/*.proto`,
/// `interned_data/interned_data.proto`, `ps/process_tree.proto`, `ftrace/ftrace_event*.proto`,
/// `android/frame_timeline_event.proto` and `chrome/chrome_trace_event.proto`.
///
/// Field numbers never change in protobuf, which is what makes a codec of framescope's own safe:
/// a newer Perfetto adds fields, and a reader skips the ones it does not know.
///
/// The numbers are `@inlinable` computed properties, not stored `static let`s, so that the reader
/// (another module) compiles them as constants: a `static let` of another module is reached
/// through a call to its addressor at every use, about ten per packet in the reader's loop.
@usableFromInline package enum PerfettoSchema {
    /// `Trace`.
    @usableFromInline package enum Trace {
        @inlinable package static var packet: Int { 1 }
    }

    /// `TracePacket`.
    @usableFromInline package enum Packet {
        @inlinable package static var ftraceEvents: Int { 1 }
        @inlinable package static var processTree: Int { 2 }
        @inlinable package static var chromeEvents: Int { 5 }
        @inlinable package static var timestamp: Int { 8 }
        @inlinable package static var trustedPacketSequenceID: Int { 10 }
        @inlinable package static var trackEvent: Int { 11 }
        @inlinable package static var internedData: Int { 12 }
        @inlinable package static var sequenceFlags: Int { 13 }
        @inlinable package static var incrementalStateCleared: Int { 41 }
        @inlinable package static var previousPacketDropped: Int { 42 }
        @inlinable package static var processDescriptor: Int { 43 }
        @inlinable package static var threadDescriptor: Int { 44 }
        @inlinable package static var timestampClockID: Int { 58 }
        @inlinable package static var defaults: Int { 59 }
        @inlinable package static var trackDescriptor: Int { 60 }
        @inlinable package static var frameTimelineEvent: Int { 76 }
        @inlinable package static var firstPacketOnSequence: Int { 87 }

        /// Fields that describe the recording, not what was drawn: `trusted_uid` (3),
        /// `clock_snapshot` (6), `trace_config` (33), `ftrace_stats` (34), `trace_stats` (35),
        /// `synchronization_marker` (36), `system_info` (45), `trusted_pid` (79) and `trace_uuid`
        /// (89). The reader reads past them by design and lists none as skipped: the service
        /// stamps the first and the last on every packet, and a diagnostic naming them thousands
        /// of times told the user nothing.
        @inlinable package static func isRecordingMetadata(_ field: Int) -> Bool {
            switch field {
            case 3, 6, 33, 34, 35, 36, 45, 79, 89: true
            default: false
            }
        }

        /// `sequence_flags` bits.
        @inlinable package static var incrementalStateClearedFlag: UInt64 { 1 }
        @inlinable package static var needsIncrementalStateFlag: UInt64 { 2 }
    }

    /// `TracePacketDefaults` and its `TrackEventDefaults`.
    @usableFromInline package enum Defaults {
        @inlinable package static var trackEventDefaults: Int { 11 }
        @inlinable package static var trackUUID: Int { 11 }
    }

    /// `TrackDescriptor`.
    @usableFromInline package enum Track {
        @inlinable package static var uuid: Int { 1 }
        @inlinable package static var name: Int { 2 }
        @inlinable package static var process: Int { 3 }
        @inlinable package static var thread: Int { 4 }
        @inlinable package static var parentUUID: Int { 5 }
        @inlinable package static var counter: Int { 8 }
        @inlinable package static var staticName: Int { 10 }
        @inlinable package static var atraceName: Int { 13 }
        @inlinable package static var siblingMergeBehavior: Int { 15 }
        /// `SIBLING_MERGE_BEHAVIOR_BY_TRACK_NAME`.
        @inlinable package static var mergeByName: UInt64 { 1 }
    }

    /// `ProcessDescriptor`.
    @usableFromInline package enum Process {
        @inlinable package static var pid: Int { 1 }
        @inlinable package static var cmdline: Int { 2 }
        @inlinable package static var legacySortIndex: Int { 3 }
        @inlinable package static var processName: Int { 6 }
    }

    /// `ThreadDescriptor`.
    @usableFromInline package enum Thread {
        @inlinable package static var pid: Int { 1 }
        @inlinable package static var tid: Int { 2 }
        @inlinable package static var legacySortIndex: Int { 3 }
        @inlinable package static var threadName: Int { 5 }
    }

    /// `TrackEvent`.
    @usableFromInline package enum Event {
        @inlinable package static var timestampDeltaMicroseconds: Int { 1 }
        @inlinable package static var categoryIIDs: Int { 3 }
        @inlinable package static var debugAnnotations: Int { 4 }
        @inlinable package static var legacyEvent: Int { 6 }
        @inlinable package static var type: Int { 9 }
        @inlinable package static var nameIID: Int { 10 }
        @inlinable package static var trackUUID: Int { 11 }
        @inlinable package static var extraCounterValues: Int { 12 }
        @inlinable package static var timestampAbsoluteMicroseconds: Int { 16 }
        @inlinable package static var categories: Int { 22 }
        @inlinable package static var name: Int { 23 }
        @inlinable package static var counterValue: Int { 30 }
        @inlinable package static var extraCounterTrackUUIDs: Int { 31 }
        @inlinable package static var chromeFrameReporter: Int { 32 }
        @inlinable package static var flowIDsOld: Int { 36 }
        @inlinable package static var terminatingFlowIDsOld: Int { 42 }
        @inlinable package static var doubleCounterValue: Int { 44 }
        @inlinable package static var extraDoubleCounterTrackUUIDs: Int { 45 }
        @inlinable package static var extraDoubleCounterValues: Int { 46 }
        @inlinable package static var flowIDs: Int { 47 }
        @inlinable package static var terminatingFlowIDs: Int { 48 }

        /// `TrackEvent.Type`.
        @inlinable package static var sliceBegin: UInt64 { 1 }
        @inlinable package static var sliceEnd: UInt64 { 2 }
        @inlinable package static var instant: UInt64 { 3 }
        @inlinable package static var counter: UInt64 { 4 }
    }

    /// `TrackEvent.LegacyEvent`.
    @usableFromInline package enum LegacyEvent {
        @inlinable package static var nameIID: Int { 1 }
        @inlinable package static var phase: Int { 2 }
        @inlinable package static var durationMicroseconds: Int { 3 }
        @inlinable package static var unscopedID: Int { 6 }
        @inlinable package static var idScope: Int { 7 }
        @inlinable package static var bindID: Int { 8 }
        @inlinable package static var localID: Int { 10 }
        @inlinable package static var globalID: Int { 11 }
        @inlinable package static var pidOverride: Int { 18 }
        @inlinable package static var tidOverride: Int { 19 }
    }

    /// `DebugAnnotation`.
    @usableFromInline package enum Annotation {
        @inlinable package static var nameIID: Int { 1 }
        @inlinable package static var boolValue: Int { 2 }
        @inlinable package static var uintValue: Int { 3 }
        @inlinable package static var intValue: Int { 4 }
        @inlinable package static var doubleValue: Int { 5 }
        @inlinable package static var stringValue: Int { 6 }
        @inlinable package static var pointerValue: Int { 7 }
        @inlinable package static var legacyJSONValue: Int { 9 }
        @inlinable package static var name: Int { 10 }
        @inlinable package static var dictEntries: Int { 11 }
        @inlinable package static var arrayValues: Int { 12 }
        @inlinable package static var stringValueIID: Int { 17 }
    }

    /// `InternedData` and its entries (`EventName`, `EventCategory`, `DebugAnnotationName`,
    /// `InternedString`: all `iid = 1`, then the string as field 2).
    @usableFromInline package enum Interned {
        @inlinable package static var eventCategories: Int { 1 }
        @inlinable package static var eventNames: Int { 2 }
        @inlinable package static var debugAnnotationNames: Int { 3 }
        @inlinable package static var debugAnnotationStringValues: Int { 29 }
        @inlinable package static var iid: Int { 1 }
        @inlinable package static var string: Int { 2 }
    }

    /// `ChromeEventBundle` and `ChromeMetadata`: where framescope keeps its trace metadata.
    @usableFromInline package enum ChromeEvents {
        @inlinable package static var metadata: Int { 2 }
        @inlinable package static var metadataName: Int { 1 }
        @inlinable package static var metadataStringValue: Int { 2 }
        @inlinable package static var metadataJSONValue: Int { 5 }
        /// The `ChromeMetadata.name` of framescope's metadata object.
        package static let framescopeMetadataName = "framescope"
    }

    /// `ChromeFrameReporter`, the typed argument of Chrome's `PipelineReporter` slices.
    @usableFromInline package enum FrameReporter {
        @inlinable package static var state: Int { 1 }
        @inlinable package static var frameSequence: Int { 4 }
        @inlinable package static var affectsSmoothness: Int { 5 }
        @inlinable package static var layerTreeHostID: Int { 11 }
        @inlinable package static var frameType: Int { 13 }
        /// `ChromeFrameReporter.State` by value, as Chrome's JSON writes it.
        package static let states = [
            "STATE_NO_UPDATE_DESIRED", "STATE_PRESENTED_ALL", "STATE_PRESENTED_PARTIAL", "STATE_DROPPED",
        ]
        /// `ChromeFrameReporter.FrameType` by value.
        package static let frameTypes = ["FORKED", "BACKFILL"]
    }

    /// `ProcessTree`, its `Process` and `Thread`.
    @usableFromInline package enum ProcessTree {
        @inlinable package static var processes: Int { 1 }
        @inlinable package static var threads: Int { 2 }
        @inlinable package static var processPID: Int { 1 }
        @inlinable package static var processCmdline: Int { 3 }
        @inlinable package static var threadTID: Int { 1 }
        @inlinable package static var threadName: Int { 2 }
        @inlinable package static var threadTGID: Int { 3 }
    }

    /// `FtraceEventBundle`, `FtraceEvent` and `PrintFtraceEvent`.
    @usableFromInline package enum Ftrace {
        @inlinable package static var event: Int { 2 }
        @inlinable package static var timestamp: Int { 1 }
        @inlinable package static var pid: Int { 2 }
        @inlinable package static var print: Int { 3 }
        @inlinable package static var printBuffer: Int { 2 }
    }

    /// `FrameTimelineEvent` (SurfaceFlinger's frame timeline) and its messages.
    @usableFromInline package enum FrameTimeline {
        @inlinable package static var expectedDisplayFrameStart: Int { 1 }
        @inlinable package static var actualDisplayFrameStart: Int { 2 }
        @inlinable package static var expectedSurfaceFrameStart: Int { 3 }
        @inlinable package static var actualSurfaceFrameStart: Int { 4 }
        @inlinable package static var frameEnd: Int { 5 }
        /// Every start message begins `cookie = 1, token = 2`.
        @inlinable package static var cookie: Int { 1 }
        @inlinable package static var token: Int { 2 }
    }
}
