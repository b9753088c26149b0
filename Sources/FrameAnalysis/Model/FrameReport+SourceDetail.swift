import FrameSupport
package import FrameTrace

extension FrameReport {
    /// What a frame source decided beyond its frames, as values: which events or marks made the
    /// frames and the counts of what it left out. Text and HTML print ``description``; JSON
    /// writes the fields (``FrameReport/jsonValue(source:)``, `frame-boundaries-detail`).
    package enum SourceDetail: Sendable, Hashable, CustomStringConvertible {
        /// Spans in the `frame` category on the main thread: `frames` of them made frames, and
        /// `nested` more lay inside them and are no frames of their own.
        case frameSpans(frames: Int, nested: Int)
        /// Spans named `name` made the frames, on `thread` (`isMain` when it is the main thread).
        case markerSpans(name: String, thread: ThreadKey, threadName: String, isMain: Bool)
        /// Instants named `name`: each frame is shown until the next mark, in whole vsyncs.
        case markerInstants(name: String)
        /// Chrome's `PipelineReporter` states. Not counted as frames: reporters whose state said
        /// no update was desired, forked or repeated reporters, and reporters with no known
        /// state; `partiallyPresented` frames that do not affect smoothness count as presented.
        case chromeReporters(noUpdateDesired: Int, forkedOrRepeated: Int, unknownState: Int, partiallyPresented: Int)
        /// Chrome's `BeginFrame`/`DrawFrame`/`DroppedFrame` events; `idleBeginFrames` drew
        /// nothing and are not frames.
        case chromeBeginFrames(idleBeginFrames: Int)
        /// Android's FrameTimeline: `frames` actual surface frames of `processID` (on `layer`
        /// when known), with main lanes from `mainSlices` slices named `mainSliceName` and render
        /// lanes from `renderSlices` `DrawFrames` slices of the same token.
        case androidFrameTimeline(
            frames: Int, processID: Int64, layer: String?, mainSliceName: String, mainSlices: Int, renderSlices: Int)
        /// No frame events: each stretch of main-thread work is a frame.
        case estimated
        /// Nothing said (a method made by hand).
        case unspecified

        /// The kind, as JSON writes it: `frame-spans`, `marker-spans`, `marker-instants`,
        /// `chrome-reporters`, `chrome-begin-frames`, `android-frame-timeline`, `estimated` or
        /// `unspecified`.
        package var identifier: String {
            switch self {
            case .frameSpans: "frame-spans"
            case .markerSpans: "marker-spans"
            case .markerInstants: "marker-instants"
            case .chromeReporters: "chrome-reporters"
            case .chromeBeginFrames: "chrome-begin-frames"
            case .androidFrameTimeline: "android-frame-timeline"
            case .estimated: "estimated"
            case .unspecified: "unspecified"
            }
        }

        /// One line for a reader of the report; names from the trace appear as they are (each
        /// renderer escapes its own output), except a layer name, which is shortened.
        package var description: String {
            switch self {
            case .frameSpans(let frames, let nested):
                var text = "\(frames) spans in category \"\(FrameContract.frameCategory)\" on the main thread"
                if nested > 0 {
                    text +=
                        "; \(nested) more inside them are no frames of their own (their time is the frame's own, "
                        + "\(FrameAnalyzer.unattributedCategory))"
                }
                return text
            case .markerSpans(let name, _, let threadName, let isMain):
                return "spans named \"\(name)\" on \(isMain ? "the main thread" : "thread \(threadName)")"
            case .markerInstants(let name):
                return "instants named \"\(name)\": each frame is shown until the next mark, in whole vsyncs"
            case .chromeReporters(let noUpdate, let forked, let unknown, let partial):
                var text =
                    "PipelineReporter states; \(noUpdate) no-update-desired, \(forked) forked or repeated reporters"
                    + (unknown > 0 ? ", \(unknown) without a known state" : "") + " not counted as frames"
                if partial > 0 {
                    text +=
                        "; \(partial) partially presented \(partial == 1 ? "frame that does" : "frames that do") not affect "
                        + "smoothness, counted as presented"
                }
                return text
            case .chromeBeginFrames(let idle):
                return
                    "BeginFrame/DrawFrame/DroppedFrame; \(idle) idle BeginFrames (nothing drawn) not counted as frames"
            case .androidFrameTimeline(
                let frames, let processID, let layer, let mainSliceName, let mainSlices, let renderSlices):
                var text = "\(frames) actual surface frames of process \(processID)"
                if let layer { text += " (layer \(UntrustedText.shortened(layer)))" }
                return text
                    + "; lanes from \(mainSliceName) (\(mainSlices)) and DrawFrames (\(renderSlices)) of the same token"
            case .estimated:
                return
                    "each stretch of main-thread work is a frame, late only by what it ran past P; record frames with "
                    + "Recorder.withFrame or name them with --frame-marker"
            case .unspecified:
                return ""
            }
        }

        /// The fields as JSON: `kind` (``identifier``), the counts and names, and `text`
        /// (``description``).
        var json: JSONValue {
            var fields: [(String, JSONValue)] = [("kind", .string(identifier))]
            switch self {
            case .frameSpans(let frames, let nested):
                fields += [("frames", .int(Int64(frames))), ("nested-frame-spans", .int(Int64(nested)))]
            case .markerSpans(let name, let thread, let threadName, let isMain):
                fields += [
                    ("name", .string(name)), ("pid", .int(thread.processID)), ("tid", .int(thread.threadID)),
                    ("thread-name", .string(threadName)), ("is-main-thread", .bool(isMain)),
                ]
            case .markerInstants(let name):
                fields += [("name", .string(name))]
            case .chromeReporters(let noUpdate, let forked, let unknown, let partial):
                fields += [
                    ("no-update-desired", .int(Int64(noUpdate))), ("forked-or-repeated", .int(Int64(forked))),
                    ("unknown-state", .int(Int64(unknown))), ("partially-presented", .int(Int64(partial))),
                ]
            case .chromeBeginFrames(let idle):
                fields += [("idle-begin-frames", .int(Int64(idle)))]
            case .androidFrameTimeline(
                let frames, let processID, let layer, let mainSliceName, let mainSlices, let renderSlices):
                fields += [
                    ("frames", .int(Int64(frames))), ("pid", .int(processID)),
                    ("layer", layer.map(JSONValue.string) ?? .null),
                    ("main-slice-name", .string(mainSliceName)), ("main-slices", .int(Int64(mainSlices))),
                    ("render-slices", .int(Int64(renderSlices))),
                ]
            case .estimated, .unspecified:
                break
            }
            fields.append(("text", .string(description)))
            return .object(fields)
        }
    }
}
